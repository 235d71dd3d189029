package io.starvationlab.problem;

import java.util.List;

import com.fasterxml.jackson.annotation.JsonInclude;

/**
 * An RFC 9457 problem: the one error shape of the service.
 *
 * @param type      {@code urn:starvation-lab:problem:<slug>}, stable for clients to branch on
 * @param parameter the query parameter at fault, for 400s
 * @param allowed   the values the parameter accepts, where they are few
 * @param modes     the work modes, for an unknown mode
 * @param reason    why work was refused, for 503s (the {@code reason} tag of {@code lab.work.rejected} or {@code lab.downstream.rejected})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Problem(String type, String title, int status, String detail, String instance,
        String parameter, List<String> allowed, List<String> modes, String reason) {

    public static final String MEDIA_TYPE = "application/problem+json";

    public static Problem of(String slug, String title, int status, String detail, String instance) {
        return new Problem("urn:starvation-lab:problem:" + slug, title, status, detail, instance, null, null, null, null);
    }

    /** A 503: the service refuses work for now, for {@code reason}. */
    public static Problem serviceUnavailable(String reason, String detail, String instance) {
        return of(reason, "Service unavailable", 503, detail, instance).withReason(reason);
    }

    Problem withParameter(String name, List<String> values) {
        return new Problem(type, title, status, detail, instance, name, values, modes, reason);
    }

    Problem withModes(List<String> values) {
        return new Problem(type, title, status, detail, instance, parameter, allowed, values, reason);
    }

    Problem withReason(String value) {
        return new Problem(type, title, status, detail, instance, parameter, allowed, modes, value);
    }
}
