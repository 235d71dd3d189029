package io.starvationlab.rest;

import java.util.List;
import java.util.Map;

/**
 * What {@code GET /lab/info} answers: the facts that decide whether this JVM starves, measured on it.
 *
 * @param synchronizedPins   whether blocking inside {@code synchronized} pinned a carrier in a probe at start-up; null if unknown
 * @param lockingMode        HotSpot's LockingMode (1 legacy, 2 lightweight), null where the option is gone
 * @param downstreamPermits  {@code lab.downstream.permits} as configured
 * @param permits            the permits each downstream really has ({@code db} is capped at the pool's max size)
 * @param workerThreads      the worker pool's maximum: how many {@code platform} requests run at once
 * @param eventLoops         how many event loops Vert.x runs: each feeds the carriers through a queue of its own
 * @param virtualPollers     whether the I/O pollers are virtual threads (JDK 22+ unless {@code -Djdk.pollerMode=1}): a
 *                           carrier pinned on a socket read then waits for a poller that needs a carrier
 */
public record LabInfo(String javaVersion, String javaVendor, int availableProcessors, int carrierParallelism,
        int carrierMaxPoolSize, Integer lockingMode, Boolean synchronizedPins, boolean nativePinAvailable,
        String nativePinUnavailableReason, int downstreamPermits, Map<String, Integer> permits, int poolMaxSize, int workerThreads,
        List<String> modes, boolean embeddedDatabase, boolean canary, boolean pinningMonitor, List<String> jvmArguments,
        int eventLoops, boolean virtualPollers) {
}
