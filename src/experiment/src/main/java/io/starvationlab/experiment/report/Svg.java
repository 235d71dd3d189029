package io.starvationlab.experiment.report;

/** What the experiment's SVG pictures share. */
public final class Svg {

    private Svg() {
    }

    /** Text made safe for an SVG element or attribute. */
    public static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
