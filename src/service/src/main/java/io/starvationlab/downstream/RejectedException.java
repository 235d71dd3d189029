package io.starvationlab.downstream;

import java.time.Duration;
import java.util.List;
import java.util.Locale;

/** A downstream refuses the call for now: answered 503 with {@code Retry-After}. */
public class RejectedException extends RuntimeException {

    /** Why a downstream refused the call; the {@code reason} tag of {@code lab.downstream.rejected}. */
    public enum Reason {
        /** No permit within the acquire timeout. */
        PERMIT_TIMEOUT,
        /** Too many requests already waiting for a permit. */
        QUEUE_FULL,
        /** The database did not give a connection in time, or failed the call. */
        DATABASE_UNAVAILABLE,
        /** The database failed recently; the breaker answers at once until it retries. */
        BREAKER_OPEN;

        public String label() {
            return name().toLowerCase(Locale.ROOT).replace('_', '-');
        }

        /** The {@code downstream} tags this reason can carry. */
        public List<String> downstreams() {
            return switch (this) {
                case PERMIT_TIMEOUT, QUEUE_FULL -> List.of(Downstream.DB.label(), Downstream.SLEEP.label());
                case DATABASE_UNAVAILABLE, BREAKER_OPEN -> List.of(Downstream.DB.label());
            };
        }
    }

    private final Reason reason;
    private final Duration retryAfter;

    public RejectedException(Reason reason, String detail, Duration retryAfter, Throwable cause) {
        super(detail, cause);
        this.reason = reason;
        this.retryAfter = retryAfter;
    }

    public Reason reason() {
        return reason;
    }

    public Duration retryAfter() {
        return retryAfter;
    }
}
