package io.starvationlab.experiment.run;

import java.util.Map;

import io.starvationlab.harness.LabServer;

/** The machine and the client JVM the run ran on. */
public record Environment(String os, int hostProcessors, String clientJava, String plan, int carriersPerServer,
        Map<String, Double> probesPerSecond) {

    /** This machine and JVM, running {@code plan} with its probes at {@code probesPerSecond}. */
    public static Environment here(String plan, Map<String, Double> probesPerSecond) {
        return new Environment(System.getProperty("os.name") + " " + System.getProperty("os.version") + " " + System.getProperty("os.arch"),
                Runtime.getRuntime().availableProcessors(), System.getProperty("java.vm.name") + " " + Runtime.version(), plan,
                LabServer.CARRIERS, probesPerSecond);
    }
}
