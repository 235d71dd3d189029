package io.starvationlab.service;

/**
 * What one unit of work did and where it ran.
 *
 * @param carrier the carrier's name as the virtual thread shows it, or null on a platform thread
 */
public record WorkResult(String mode, String downstream, String lock, int ms, double permitWaitMillis,
        double elapsedMillis, String thread, boolean virtual, String carrier) {
}
