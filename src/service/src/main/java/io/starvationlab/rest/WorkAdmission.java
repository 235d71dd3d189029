package io.starvationlab.rest;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import org.jboss.logging.Logger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.Startup;
import io.starvationlab.config.LabConfig;
import io.starvationlab.jvm.NativeFrames;
import io.starvationlab.observe.CarrierWaits;
import io.starvationlab.service.Cancellation;
import io.starvationlab.service.InvalidRequestException;
import io.starvationlab.service.Mode;
import io.starvationlab.service.ModeUnavailableException;
import io.starvationlab.service.UnknownModeException;
import io.starvationlab.service.WorkRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;

/**
 * Keeps every request that runs on the carriers bounded from the event loop, where starvation cannot
 * reach. For {@code /work}:
 * <ul>
 * <li>the request is parsed once, here, and a request refused for its input (400, 404, 405, 501) is
 * answered here, with the problem its JAX-RS mapper would give: Quarkus starts a virtual thread per
 * request, and under starvation one could not even run to refuse itself before its deadline. The
 * resource gets the parsed request and its cancellation from the routing context;</li>
 * <li>past {@code lab.work.max-in-flight} requests, 503 before a thread is spent;</li>
 * <li>a deadline of {@code ms} + acquire timeout + {@code lab.work.deadline-grace}: a request not
 * answered by then gets 503 and its work is cancelled, so starved carriers cannot hold a client longer;</li>
 * <li>a client that disconnects cancels its work;</li>
 * <li>from here until its virtual thread runs, the request counts as waiting for a carrier
 * ({@link CarrierWaits}).</li>
 * </ul>
 * {@code /probe/virtual}, the other endpoint on the carriers, gets the same deadline with {@code ms} = 0:
 * under starvation a virtual thread may wait for a carrier without end, and the probe's client must
 * not.
 */
@Startup
@ApplicationScoped
public class WorkAdmission {

    /** Runs right after {@link RequestHygiene}: a request with a body is refused before it is admitted. */
    static final int ROUTE_ORDER = RequestHygiene.ROUTE_ORDER + 1;
    private static final String ADMITTED = "lab.admitted-work";
    private static final String WORK_PREFIX = "/work/";
    private static final String PLATFORM = WORK_PREFIX + Mode.PLATFORM.label();
    private static final String HANDED_OFF = "lab.handed-off";
    private static final Logger LOG = Logger.getLogger(WorkAdmission.class);

    /** Why a request was refused before any work began: the {@code reason} tag of {@code lab.work.rejected}. */
    enum Refusal {
        /** Too many requests in flight. */
        OVERLOADED,
        /** Not answered within ms + acquire timeout + grace: the work was cancelled. */
        DEADLINE;

        String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /**
     * A {@code /work} request as admitted: its parsed form and the cancellation the event loop fires when
     * the client disconnects or the deadline passes. Virtual threads only read it: one that touched the
     * response would take the connection's monitor, which the event loop needs too.
     */
    record Admitted(WorkRequest request, Cancellation cancellation) {
    }

    /** What a {@code /work} request asks for, or the problem its input is refused with. */
    private record Input(WorkRequest request, Problem refusal) {

        static Input refused(Problem problem) {
            return new Input(null, problem);
        }
    }

    private final AtomicInteger inFlight = new AtomicInteger();
    private final Map<Refusal, Counter> refusals = new EnumMap<>(Refusal.class);
    private final LabConfig config;
    private final ProblemResponses problems;
    private final CarrierWaits carrierWaits;
    private final NativeFrames nativeFrames;

    public WorkAdmission(LabConfig config, ProblemResponses problems, CarrierWaits carrierWaits, NativeFrames nativeFrames,
            MeterRegistry registry) {
        this.config = config;
        this.problems = problems;
        this.carrierWaits = carrierWaits;
        this.nativeFrames = nativeFrames;
        Gauge.builder("lab.work.in.flight", inFlight, AtomicInteger::get)
                .description("/work requests admitted and not yet answered").register(registry);
        // every series an alert may read exists from the start, at zero
        for (Refusal refusal : Refusal.values()) {
            refusals.put(refusal, Counter.builder("lab.work.rejected")
                    .description("Work requests refused with 503 before any downstream was called, by reason")
                    .tag("reason", refusal.label()).register(registry));
        }
    }

    /** The request admitted for this routing context. */
    static Admitted admitted(RoutingContext context) {
        Admitted admitted = context.get(ADMITTED);
        if (admitted == null) {
            throw new IllegalStateException("no admission for " + context.request().path());
        }
        return admitted;
    }

    /** On the request's virtual thread, first: its wait for a carrier is over ({@link CarrierWaits}). */
    static void reachedCarrier(RoutingContext context) {
        CarrierWaits.Waiting waiting = context.get(HANDED_OFF);
        if (waiting != null) {
            waiting.started();
        }
    }

    void install(@Observes Router router) {
        router.route(WORK_PREFIX + "*").order(ROUTE_ORDER).handler(this::admit).failureHandler(this::afterAnswer);
        router.route("/probe/virtual").order(ROUTE_ORDER).handler(this::boundProbe).failureHandler(this::afterAnswer);
    }

    /** The virtual probe's deadline: that of work of 0 ms. */
    private void boundProbe(RoutingContext context) {
        Duration deadline = deadlineFor(0);
        long timer = context.vertx().setTimer(deadline.toMillis(), fired -> expire(context, Cancellation.create(), deadline));
        context.addEndHandler(ended -> context.vertx().cancelTimer(timer));
        handOff(context);
        context.next();
    }

    /** The request goes to a virtual thread next: it waits for a carrier until {@link #reachedCarrier}, or until it is answered. */
    private void handOff(RoutingContext context) {
        CarrierWaits.Waiting waiting = carrierWaits.handedOff();
        context.put(HANDED_OFF, waiting);
        context.addEndHandler(ended -> waiting.ended());
    }

    /**
     * A request answered at its deadline still runs on its starved thread, and fails when it tries to
     * answer a second time: nothing is wrong that anyone could act on, so it is not an error.
     */
    private void afterAnswer(RoutingContext context) {
        if (context.response().ended()) {
            LOG.debugf("%s finished after it was answered: %s", context.request().path(), context.failure());
            return;
        }
        context.next();
    }

    private void admit(RoutingContext context) {
        if (context.request().method() == HttpMethod.OPTIONS) {
            context.next(); // JAX-RS lists the methods /work allows; nothing runs
            return;
        }
        Input input = read(context);
        if (input.refusal() != null) {
            problems.end(context, input.refusal(), null);
            return;
        }
        int maxInFlight = config.work().maxInFlight();
        if (inFlight.incrementAndGet() > maxInFlight) {
            inFlight.decrementAndGet();
            refuse(context, Refusal.OVERLOADED, maxInFlight + " work requests are in flight already");
            return;
        }
        Admitted admitted = new Admitted(input.request(), Cancellation.create());
        context.put(ADMITTED, admitted);
        long[] timer = { -1 };
        context.addEndHandler(ended -> {
            context.vertx().cancelTimer(timer[0]);
            inFlight.decrementAndGet();
            if (ended.failed()) {
                admitted.cancellation().cancel(); // the connection closed before the answer: nobody is listening
            }
        });
        Duration deadline = deadlineFor(admitted.request().ms());
        timer[0] = context.vertx().setTimer(deadline.toMillis(), fired -> expire(context, admitted.cancellation(), deadline));
        if (!PLATFORM.equals(context.normalizedPath())) { // the one /work endpoint on the worker pool
            handOff(context);
        }
        context.next();
    }

    /**
     * Routes as JAX-RS would ({@code GET /work/{mode}} only; a trailing slash belongs to the mode), then
     * parses the query and checks that the mode runs on this JVM.
     */
    private Input read(RoutingContext context) {
        String path = context.normalizedPath();
        String instance = context.request().path();
        String mode = path.startsWith(WORK_PREFIX) ? path.substring(WORK_PREFIX.length()) : "";
        String segment = mode.endsWith("/") ? mode.substring(0, mode.length() - 1) : mode;
        if (segment.isEmpty() || segment.contains("/")) {
            return Input.refused(ProblemResponses.unrouted(404, instance));
        }
        HttpMethod method = context.request().method();
        if (method != HttpMethod.GET && method != HttpMethod.HEAD) {
            return Input.refused(ProblemResponses.unrouted(405, instance));
        }
        try {
            Map<String, List<String>> query = new LinkedHashMap<>();
            context.queryParams().forEach((name, value) -> query.computeIfAbsent(name, key -> new ArrayList<>()).add(value));
            WorkRequest request = WorkRequest.parse(mode, query, config.work().defaultMs(), config.work().maxMs());
            if (request.mode() == Mode.NATIVE && nativeFrames.frame().isEmpty()) {
                throw new ModeUnavailableException(request.mode(), nativeFrames.unavailableReason());
            }
            return new Input(request, null);
        } catch (InvalidRequestException | UnknownModeException | ModeUnavailableException refused) {
            return Input.refused(ProblemResponses.refusal(refused, instance));
        } catch (IllegalArgumentException undecodable) {
            // Vert.x could not decode the query (a bad percent-escape)
            return Input.refused(ProblemResponses.refusal(new InvalidRequestException("query", "is not valid percent-encoding", null), instance));
        }
    }

    private void expire(RoutingContext context, Cancellation cancellation, Duration deadline) {
        cancellation.cancel();
        if (context.response().headWritten() || context.response().ended()) {
            return;
        }
        try {
            refuse(context, Refusal.DEADLINE, "not answered within its deadline of " + deadline.toMillis()
                    + " ms (ms + acquire timeout + grace): the carriers are starved or the downstream is stuck; any work was cancelled");
        } catch (IllegalStateException answeredMeanwhile) {
            LOG.debugf("%s was answered as its deadline passed", context.request().path());
        }
    }

    private void refuse(RoutingContext context, Refusal refusal, String detail) {
        problems.end(context, Problem.serviceUnavailable(refusal.label(), detail, context.request().path()), config.downstream().retryAfter());
        refusals.get(refusal).increment();
    }

    private Duration deadlineFor(int ms) {
        return Duration.ofMillis(ms).plus(config.downstream().acquireTimeout()).plus(config.work().deadlineGrace());
    }
}
