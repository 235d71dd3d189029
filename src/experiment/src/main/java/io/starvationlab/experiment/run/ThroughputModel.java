package io.starvationlab.experiment.run;

import io.starvationlab.model.Plan;

/**
 * The lab's model of a phase's throughput: whatever runs out first of carriers, a shared lock, the worker pool, the
 * permits and the clients, each divided by the call's {@code ms}.
 *
 * @param limit what the model says the throughput can be at most, per second
 * @param basis which bound the model used: carriers, permits, concurrency, worker-pool or shared-lock
 */
public record ThroughputModel(double limit, String basis) {

    public static ThroughputModel of(Plan.Phase phase, MeasuredServer.Info server) {
        double perSlot = 1000.0 / Math.max(phase.ms(), 1);
        if (("pinned".equals(phase.mode()) || "reentrant".equals(phase.mode())) && "shared".equals(phase.lock())) {
            return new ThroughputModel(perSlot, "shared-lock");
        }
        int slots = phase.concurrency();
        String basis = "concurrency";
        if (!"cpu".equals(phase.mode()) && server.permits(phase.downstream()) < slots) {
            slots = server.permits(phase.downstream());
            basis = "permits";
        }
        if ("platform".equals(phase.mode()) && server.workerThreads() < slots) {
            slots = server.workerThreads();
            basis = "worker-pool";
        }
        if (phase.holdsCarriers(server.nativePinAvailable(), Boolean.TRUE.equals(server.synchronizedPins())) && server.carriers() < slots) {
            slots = server.carriers();
            basis = "carriers";
        }
        return new ThroughputModel(slots * perSlot, basis);
    }
}
