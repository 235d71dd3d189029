package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.run.EventLoopsBlocked;
import io.starvationlab.experiment.run.MeasuredColdStart;

/**
 * Vert.x's blocked-thread checker as an oracle: under any load of the plan, a server JVM's event loops keep
 * answering. The lazy cold-start runs are left out: there a blocked event loop is the expected result.
 */
final class BlockedThreadFindings {

    static final String NONE_BLOCKED = "no-event-loop-blocked";

    private BlockedThreadFindings() {
    }

    /** {@code servers}: the main plan's server JVMs by name (null: it did not start); the eager cold-start runs join them. */
    static Finding evaluate(Map<String, EventLoopsBlocked> servers, List<MeasuredColdStart> coldStarts) {
        String claim = "No event loop waits, whatever holds the carriers: Vert.x's blocked-thread checker warns of none in any server JVM";
        String expected = "no blocked-thread warning about an event loop in the log of any server JVM of the main plan, nor of an eager cold start";
        Map<String, EventLoopsBlocked> judged = new LinkedHashMap<>();
        servers.forEach((name, blocked) -> {
            if (blocked != null) {
                judged.put(name, blocked);
            }
        });
        coldStarts.stream().filter(run -> !run.lazy()).forEach(run -> judged.put(run.server(), run.eventLoopsBlocked()));
        if (judged.isEmpty()) {
            return Finding.notJudged(NONE_BLOCKED, claim, expected, "not measured: no server JVM ran");
        }
        List<String> blocked = new ArrayList<>();
        judged.forEach((name, warnings) -> {
            if (warnings.any()) {
                blocked.add(String.format(Locale.ROOT, "%s: %d warnings, longest %s; first: %s", name, warnings.warnings(),
                        Figures.seconds(warnings.longestMillis()), String.join(" / ", warnings.firstWarning()).replace("|", "\\|")));
            }
        });
        if (blocked.isEmpty()) {
            return new Finding(NONE_BLOCKED, claim, expected, "none in " + judged.size() + " server JVMs (" + String.join(", ", judged.keySet()) + ")",
                    true);
        }
        return new Finding(NONE_BLOCKED, claim, expected, String.join("; ", blocked), false);
    }
}
