package io.starvationlab.service;

import java.util.Locale;

/** Which lock a {@code pinned} or {@code reentrant} request takes. */
public enum LockScope {
    /** A new lock per request: nothing contends, only the wrapping matters. */
    PRIVATE,
    /** One lock for all requests of the mode: requests run one at a time. */
    SHARED;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
