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
 * @param cgroupVersion      the container's cgroup file system ({@code v1}, {@code v2}); null where there is none
 * @param cpuQuotaMicros     CPU time the container may use per period; null when it sets no CPU limit
 * @param cpuPeriodMicros    the period of that quota; null with it: the CPU limit is quota ÷ period
 * @param effectiveCpuCount  the CPUs the JVM derives from its container (the CPUs it may run on, capped at
 *                           the quota rounded up); {@code availableProcessors} unless {@code -XX:ActiveProcessorCount} is set
 * @param memoryLimitBytes   the container's memory limit; null when none is below the machine's memory
 * @param garbageCollector   the collector this JVM runs ({@code G1}, {@code Serial}, ...): set on the command
 *                           line or chosen by the JVM from the CPUs and memory it sees
 * @param virtualPollers     whether the I/O pollers are virtual threads (JDK 22+ unless {@code -Djdk.pollerMode=1}): a
 *                           carrier pinned on a socket read then waits for a poller that needs a carrier
 */
public record LabInfo(String javaVersion, String javaVendor, int availableProcessors, int carrierParallelism,
        int carrierMaxPoolSize, Integer lockingMode, Boolean synchronizedPins, boolean nativePinAvailable,
        String nativePinUnavailableReason, int downstreamPermits, Map<String, Integer> permits, int poolMaxSize, int workerThreads,
        List<String> modes, boolean embeddedDatabase, boolean canary, boolean pinningMonitor, List<String> jvmArguments,
        int eventLoops, String cgroupVersion, Long cpuQuotaMicros, Long cpuPeriodMicros, int effectiveCpuCount, Long memoryLimitBytes,
        String garbageCollector, boolean virtualPollers) {
}
