package io.starvationlab.experiment.run;

import java.util.List;

import com.fasterxml.jackson.databind.JsonNode;

import io.starvationlab.experiment.server.LabClient;

/** What a server JVM of the experiment said about itself in {@code /lab/info}. */
public record ServerFacts(String jvm, String description, String javaVersion, String javaVendor, int availableProcessors,
        int carriers, int carrierMaxPoolSize, Integer lockingMode, Boolean synchronizedPins, boolean nativePinAvailable,
        int sleepPermits, int dbPermits, int workerThreads, List<String> jvmArguments, int eventLoops) {

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
                info.path("eventLoops").asInt());
    }

    /** The feature version of its JDK: 25 for {@code 25.0.1+8-LTS}, 21 for {@code 21.0.13+11-Debian-1}. */
    public int feature() {
        return Integer.parseInt(javaVersion.split("[^0-9]", 2)[0]);
    }

    public int permits(String downstream) {
        return "db".equals(downstream) ? dbPermits : sleepPermits;
    }
}
