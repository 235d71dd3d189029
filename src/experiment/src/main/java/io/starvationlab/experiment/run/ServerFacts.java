package io.starvationlab.experiment.run;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.harness.LabClient;

/** What a server JVM of the experiment said about itself in {@code /lab/info}. */
public record ServerFacts(String jvm, String description, String javaVersion, String javaVendor, int availableProcessors,
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

        /** The quota in CPUs (quota ÷ period), or NaN when none is set. */
        public double cpus() {
            return cpuQuotaMicros == null || cpuPeriodMicros == null || cpuPeriodMicros == 0 ? Double.NaN
                    : cpuQuotaMicros / (double) cpuPeriodMicros;
        }
    }

    public static ServerFacts read(String jvm, String description, JsonNode info) {
        JsonNode lockingMode = info.path("lockingMode");
        JsonNode pins = info.path("synchronizedPins");
        return new ServerFacts(jvm, description, info.path("javaVersion").asText(), info.path("javaVendor").asText(),
                info.path("availableProcessors").asInt(), info.path("carrierParallelism").asInt(),
                info.path("carrierMaxPoolSize").asInt(), lockingMode.isNumber() ? lockingMode.asInt() : null,
                pins.isBoolean() ? pins.asBoolean() : null, info.path("nativePinAvailable").asBoolean(),
                info.path("permits").path("sleep").asInt(), info.path("permits").path("db").asInt(),
                info.path("workerThreads").asInt(),
                LabClient.json().convertValue(info.path("jvmArguments"), LabClient.json().getTypeFactory()
                        .constructCollectionType(List.class, String.class)),
                info.path("eventLoops").asInt(), new Container(text(info.path("cgroupVersion")), number(info.path("cpuQuotaMicros")),
                        number(info.path("cpuPeriodMicros")), info.path("effectiveCpuCount").asInt(), text(info.path("garbageCollector"))));
    }

    private static String text(JsonNode node) {
        return node.isTextual() ? node.asText() : null;
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
