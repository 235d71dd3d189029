package io.starvationlab.service;

import java.util.List;

/** A query parameter the service refuses: answered 400. */
public class InvalidRequestException extends RuntimeException {

    private final String parameter;
    private final List<String> allowed;

    public InvalidRequestException(String parameter, String reason, List<String> allowed) {
        super("'" + parameter + "' " + reason);
        this.parameter = parameter;
        this.allowed = allowed;
    }

    public String parameter() {
        return parameter;
    }

    public List<String> allowed() {
        return allowed;
    }
}
