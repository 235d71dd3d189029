package io.starvationlab.service;

/** The client went away and the request gave up its wait. Nobody reads the answer. */
public class CancelledException extends RuntimeException {

    public CancelledException() {
        super("the client went away", null, false, false);
    }
}
