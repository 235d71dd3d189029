package io.starvationlab.service;

/** A {@code /work/{mode}} with a mode the lab does not have: answered 404 with the list of modes. */
public class UnknownModeException extends RuntimeException {

    public UnknownModeException(String mode) {
        super("no work mode '" + mode + "'; the modes are " + String.join(", ", Mode.labels()));
    }
}
