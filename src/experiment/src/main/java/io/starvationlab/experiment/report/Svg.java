package io.starvationlab.experiment.report;

import java.util.List;
import java.util.Locale;

/** An SVG picture being drawn: a white frame with a title and a grey subtitle, then its elements, each in the root locale. */
final class Svg {

    private final StringBuilder svg = new StringBuilder();

    Svg(int width, int height, int x, String title, String subtitle) {
        add("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">", width, height);
        add("<rect width=\"%d\" height=\"%d\" fill=\"white\"/>", width, height);
        add("<text x=\"%d\" y=\"22\" font-size=\"15\" font-weight=\"bold\">%s</text>", x, escape(title));
        add("<text x=\"%d\" y=\"38\" fill=\"#555\">%s</text>", x, escape(subtitle));
    }

    Svg add(String format, Object... args) {
        svg.append(String.format(Locale.ROOT, format, args)).append('\n');
        return this;
    }

    /** A swatch of each colour beside its label, {@code step} apart downwards from ({@code x}, {@code y}); each entry colour, label. */
    Svg legend(int x, int y, int step, List<List<String>> entries) {
        for (int i = 0; i < entries.size(); i++) {
            add("<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"10\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>", x, y + i * step,
                    entries.get(i).get(0), x + 14, y + i * step + 9, escape(entries.get(i).get(1)));
        }
        return this;
    }

    String end() {
        return svg.append("</svg>\n").toString();
    }

    static String escape(String text) {
        return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
