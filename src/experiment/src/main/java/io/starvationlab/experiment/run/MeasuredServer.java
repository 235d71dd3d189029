package io.starvationlab.experiment.run;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.CpuQuota;
import io.starvationlab.harness.LabClient;
import io.starvationlab.harness.load.PhaseResult;

/**
 * One server JVM as the run measured it: what it said of itself, its clean baseline and its phases; or,
 * when it did not start, what the JVM said.
 *
 * @param info     {@code /lab/info}; null when the JVM did not start
 * @param jvmSays  the JVM's own lines about its flags (a warning, or why it refused to start)
 * @param baseline the probes-only baseline the phases are judged against; null when the JVM did not start
 * @param warmUpThrottling how often its CPU quota ran out during the warm-up; null outside a quota
 * @param eventLoopsBlocked what Vert.x's blocked-thread checker logged of its event loops, from start to its last phase; null when it did not start
 * @param remeasured the windows (its baseline, its phases) measured again because their own signals called them disturbed, and why
 */
public record MeasuredServer(ServerRun.Spec spec, Info info, List<String> jvmSays, PhaseResult baseline, List<MeasuredPhase> phases,
        CpuQuota.Throttling warmUpThrottling, EventLoopsBlocked eventLoopsBlocked, List<Disturbance.Remeasured> remeasured) {

    public boolean started() {
        return info != null;
    }

    public String name() {
        return spec.name();
    }

    /** What a server JVM of the experiment said about itself in {@code /lab/info}. */
    public record Info(String jvm, String description, String javaVersion, String javaVendor, int availableProcessors,
            int carriers, int carrierMaxPoolSize, Integer lockingMode, Boolean synchronizedPins, boolean nativePinAvailable,
            int sleepPermits, int dbPermits, int workerThreads, List<String> jvmArguments, int eventLoops, Container container) {

        /**
         * What the JVM sees of its container, and the collector it chose.
         *
         * @param cgroupVersion     {@code v1}, {@code v2}, or null where no cgroup file system is mounted
         * @param cpuQuotaMicros    CPU time its group may use per period; null when no quota is set
         * @param cpuPeriodMicros   the period of that quota; null with it
         * @param effectiveCpuCount the CPUs the JVM derives from its container (the CPUs it may run on, capped at the quota rounded up)
         */
        public record Container(String cgroupVersion, Long cpuQuotaMicros, Long cpuPeriodMicros, int effectiveCpuCount, String garbageCollector) {
        }

        public static Info read(String jvm, String description, JsonNode info) {
            JsonNode pins = info.path("synchronizedPins");
            return new Info(jvm, description, info.path("javaVersion").asText(), info.path("javaVendor").asText(),
                    info.path("availableProcessors").asInt(), info.path("carrierParallelism").asInt(), info.path("carrierMaxPoolSize").asInt(),
                    info.path("lockingMode").isNumber() ? info.path("lockingMode").asInt() : null, pins.isBoolean() ? pins.asBoolean() : null,
                    info.path("nativePinAvailable").asBoolean(), info.path("permits").path("sleep").asInt(), info.path("permits").path("db").asInt(),
                    info.path("workerThreads").asInt(), LabClient.json().convertValue(info.path("jvmArguments"),
                            LabClient.json().getTypeFactory().constructCollectionType(List.class, String.class)),
                    info.path("eventLoops").asInt(), new Container(info.path("cgroupVersion").isTextual() ? info.path("cgroupVersion").asText() : null,
                            number(info.path("cpuQuotaMicros")), number(info.path("cpuPeriodMicros")), info.path("effectiveCpuCount").asInt(),
                            info.path("garbageCollector").isTextual() ? info.path("garbageCollector").asText() : null));
        }

        private static Long number(JsonNode node) {
            return node.isNumber() ? node.asLong() : null;
        }

        /** The feature version of its JDK: 25 for {@code 25.0.1+8-LTS}, 21 for {@code 21.0.13+11-Debian-1}. */
        public int feature() {
            return Integer.parseInt(javaVersion.split("[^0-9]", 2)[0]);
        }

        public int permits(String downstream) {
            return "db".equals(downstream) ? dbPermits : sleepPermits;
        }
    }
}
