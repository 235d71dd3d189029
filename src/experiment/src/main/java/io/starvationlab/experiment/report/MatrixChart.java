package io.starvationlab.experiment.report;

import java.util.Locale;
import java.util.Map;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.MatrixReport;

/**
 * An SVG of the JDK matrix: a tile per cell and JDK, coloured by what was measured, with req/s against
 * the model limit and {@code /probe/virtual} against its baseline; an orange frame where the
 * measurement differs from the prediction.
 */
final class MatrixChart {

    private static final Map<String, String> FILL = Map.of(
            "starves", "#f4a6a6", "collapses", "#c0392b", "free", "#bfe5bf", "501", "#d9d9d9", "refused", "#bdbdbd");
    private static final int LEFT = 230;
    private static final int TOP = 70;
    private static final int WIDTH = 150;
    private static final int HEIGHT = 58;

    private MatrixChart() {
    }

    static String svg(MatrixReport matrix) {
        int width = LEFT + matrix.columns().size() * WIDTH + 20;
        int height = TOP + matrix.rows().size() * HEIGHT + 60;
        StringBuilder svg = new StringBuilder();
        svg.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" font-family=\"sans-serif\" font-size=\"11\">%n", width, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"white\"/>%n", width, height));
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"22\" font-size=\"15\" font-weight=\"bold\">Carrier starvation by JDK: measured (predicted where it differs)</text>%n"));
        svg.append(String.format(Locale.ROOT, "<text x=\"10\" y=\"40\" fill=\"#555\">req/s / model limit, /probe/virtual p50 x baseline; 4 carriers, 64 clients, 100 ms%s</text>%n",
                matrix.quick() ? ", quick mode" : ""));
        for (int c = 0; c < matrix.columns().size(); c++) {
            MatrixReport.Column column = matrix.columns().get(c);
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">JDK %d<title>%s</title></text>%n",
                    LEFT + c * WIDTH + WIDTH / 2, TOP - 8, column.feature(), Svg.escape(column.jdk() == null ? column.status() : column.jdk())));
        }
        for (int r = 0; r < matrix.rows().size(); r++) {
            String row = matrix.rows().get(r);
            int y = TOP + r * HEIGHT;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>%n", LEFT - 8, y + HEIGHT / 2 + 4, Svg.escape(row)));
            for (int c = 0; c < matrix.columns().size(); c++) {
                MatrixReport.Column column = matrix.columns().get(c);
                int x = LEFT + c * WIDTH;
                MatrixReport.Cell cell = matrix.cell(column.feature(), row).orElse(null);
                String outcome = cell == null ? null : cell.outcome();
                boolean differs = cell != null && Boolean.FALSE.equals(cell.agrees());
                svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%d\"/>%n",
                        x + 2, y + 2, WIDTH - 4, HEIGHT - 4, outcome == null ? "#f7f7f7" : FILL.getOrDefault(outcome, "#ffffff"),
                        differs ? "#ff7f0e" : "#999", differs ? 4 : 1));
                String first;
                String second = "";
                if (cell == null || outcome == null) {
                    first = "n/a";
                    second = cell == null ? column.status() : cell.source();
                } else if (cell.figures() != null) {
                    first = Figures.fixed(cell.figures().throughputPerSecond()) + " / " + Figures.fixed(cell.figures().modelLimitPerSecond()) + " req/s";
                    second = "probe " + Figures.slowdown(cell.figures());
                } else {
                    first = outcome;
                }
                String third = outcome == null ? "" : outcome + (differs ? " (predicted " + cell.prediction() + ")" : "");
                String colour = "collapses".equals(outcome) ? "white" : "black";
                svg.append(text(x + WIDTH / 2, y + 18, first, colour, true));
                svg.append(text(x + WIDTH / 2, y + 32, second.length() > 26 ? second.substring(0, 25) + "…" : second, colour, false));
                svg.append(text(x + WIDTH / 2, y + 46, third, colour, false));
            }
        }
        int legendY = TOP + matrix.rows().size() * HEIGHT + 20;
        int x = 10;
        for (String outcome : new String[] { "starves", "collapses", "free", "501", "refused" }) {
            svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>%n",
                    x, legendY, FILL.get(outcome), x + 16, legendY + 10, outcome));
            x += 90;
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"white\" stroke=\"#ff7f0e\" stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">differs from the prediction</text>%n",
                x, legendY, x + 16, legendY + 10));
        svg.append("</svg>\n");
        return svg.toString();
    }

    private static String text(int x, int y, String text, String colour, boolean bold) {
        return String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\"%s>%s</text>%n", x, y, colour,
                bold ? " font-weight=\"bold\"" : "", Svg.escape(text));
    }
}
