package io.starvationlab.experiment.findings;

/** A claim the experiment judges, by its stable id, and what it expects: stated once, judged on each run. */
record Claim(String id, String claim, String expected) {

    Finding judged(String measured, Boolean holds) {
        return new Finding(id, claim, expected, measured, holds);
    }

    /** This run could not judge the claim, for the reason {@code why}. */
    Finding notJudged(String why) {
        return judged(why, null);
    }

    Finding notMeasured() {
        return notJudged("not measured in this run");
    }
}
