package io.starvationlab.experiment.findings;

/**
 * A published or found claim the experiment reproduces, with what this run measured for it.
 *
 * @param id    stable across runs and wordings: what tests and repeats know it by
 * @param holds null when the phases it needs did not run (quick mode, or a JDK where they do not apply)
 */
public record Finding(String id, String claim, String expected, String measured, Boolean holds) {
}
