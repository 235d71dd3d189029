package io.starvationlab.experiment.findings;

import java.util.ArrayList;
import java.util.List;

/** What a finding measured, line by line: it fails on any contradiction and holds only when nothing it needed is missing. */
final class Tally {

    private final List<String> lines = new ArrayList<>();
    private String prefix = "";
    private boolean contradicted;
    private boolean incomplete;

    /** The measured text begins with {@code prefix}. */
    Tally startingWith(String prefix) {
        this.prefix = prefix;
        return this;
    }

    Tally add(String line, boolean expected) {
        expect(expected);
        return add(line);
    }

    Tally add(String line) {
        lines.add(line);
        return this;
    }

    void expect(boolean condition) {
        contradicted |= !condition;
    }

    void missing() {
        need(false);
    }

    /** Something the finding needs was measured, or it cannot hold. */
    void need(boolean measured) {
        incomplete |= !measured;
    }

    boolean isEmpty() {
        return lines.isEmpty();
    }

    Finding judged(Claim claim, String separator) {
        return claim.judged(prefix + String.join(separator, lines), contradicted ? Boolean.FALSE : incomplete ? null : Boolean.TRUE);
    }
}
