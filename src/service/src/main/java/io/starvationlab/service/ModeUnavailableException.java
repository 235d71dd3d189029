package io.starvationlab.service;

/** A mode this JVM cannot run (the native mode without FFM): answered 501. */
public class ModeUnavailableException extends RuntimeException {

    public ModeUnavailableException(Mode mode, String reason) {
        super("mode '" + mode.label() + "' is not available here: " + reason);
    }
}
