package io.starvationlab.experiment.run;

import java.util.List;
import java.util.Map;

import io.starvationlab.harness.Jdks;

/** The JDK matrix as run: a column per JDK of the plan, and how long it took. */
public record MeasuredMatrix(boolean quick, List<Column> columns, double seconds) {

    /**
     * One JDK of the matrix.
     *
     * @param jdk     the JDK, or null when none was found
     * @param status  "measured", or why the column is empty
     * @param reused  the main run's phases taken as this JDK's cells, by cell name
     */
    public record Column(int feature, Jdks.Jdk jdk, String status, List<MeasuredServer> servers, Map<String, Reused> reused) {
    }

    /** A main run's phase taken as a cell, with the server JVM it ran on. */
    public record Reused(MeasuredServer server, MeasuredPhase phase) {
    }
}
