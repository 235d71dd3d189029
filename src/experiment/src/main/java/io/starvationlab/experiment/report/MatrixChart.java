package io.starvationlab.experiment.report;

import java.util.List;
import java.util.Map;

import io.starvationlab.experiment.results.Figures;
import io.starvationlab.experiment.results.JudgedMatrix;

/**
 * An SVG of the JDK matrix: a tile per cell and JDK, coloured by what was measured, with req/s against
 * the model limit and {@code /probe/virtual} against its baseline; an orange frame where the
 * measurement differs from the prediction.
 */
final class MatrixChart {

    static final String FILE = "jdk-matrix.svg";
    private static final Map<String, String> FILL = Map.of(
            "starves", "#f4a6a6", "collapses", "#c0392b", "free", "#bfe5bf", "501", "#d9d9d9", "refused", "#bdbdbd");
    private static final int LEFT = 230;
    private static final int TOP = 70;
    private static final int WIDTH = 150;
    private static final int HEIGHT = 58;

    private MatrixChart() {
    }

    static String svg(JudgedMatrix matrix) {
        Svg svg = new Svg(LEFT + matrix.columns().size() * WIDTH + 20, TOP + matrix.rows().size() * HEIGHT + 60, 10,
                "Carrier starvation by JDK: measured (predicted where it differs)",
                "req/s / model limit, /probe/virtual p50 x baseline; 4 carriers, 64 clients, 100 ms" + (matrix.quick() ? ", quick mode" : ""));
        for (int c = 0; c < matrix.columns().size(); c++) {
            JudgedMatrix.Column column = matrix.columns().get(c);
            svg.add("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" font-weight=\"bold\">JDK %d<title>%s</title></text>", LEFT + c * WIDTH + WIDTH / 2,
                    TOP - 8, column.feature(), Svg.escape(column.jdk() == null ? column.status() : column.jdk()));
        }
        for (int r = 0; r < matrix.rows().size(); r++) {
            String row = matrix.rows().get(r);
            int y = TOP + r * HEIGHT;
            svg.add("<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s</text>", LEFT - 8, y + HEIGHT / 2 + 4, Svg.escape(row));
            for (int c = 0; c < matrix.columns().size(); c++) {
                JudgedMatrix.Column column = matrix.columns().get(c);
                int x = LEFT + c * WIDTH;
                JudgedMatrix.Cell cell = matrix.cell(column.feature(), row).orElse(null);
                String outcome = cell == null ? null : cell.outcome();
                boolean differs = cell != null && Boolean.FALSE.equals(cell.agrees());
                svg.add("<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%d\"/>", x + 2, y + 2, WIDTH - 4,
                        HEIGHT - 4, outcome == null ? "#f7f7f7" : FILL.getOrDefault(outcome, "#ffffff"), differs ? "#ff7f0e" : "#999", differs ? 4 : 1);
                List<String> lines = outcome == null ? List.of("n/a", cell == null ? column.status() : cell.source(), "")
                        : cell.figures() == null ? List.of(outcome, "", outcome + (differs ? " (predicted " + cell.prediction() + ")" : ""))
                        : List.of(Figures.fixed(cell.figures().throughputPerSecond()) + " / " + Figures.fixed(cell.figures().modelLimitPerSecond())
                                + " req/s", "probe " + Figures.slowdown(cell.figures()), outcome + (differs ? " (predicted " + cell.prediction() + ")" : ""));
                for (int line = 0; line < 3; line++) {
                    String text = line == 1 && lines.get(line).length() > 26 ? lines.get(line).substring(0, 25) + "…" : lines.get(line);
                    svg.add("<text x=\"%d\" y=\"%d\" text-anchor=\"middle\" fill=\"%s\"%s>%s</text>", x + WIDTH / 2, y + 18 + 14 * line,
                            "collapses".equals(outcome) ? "white" : "black", line == 0 ? " font-weight=\"bold\"" : "", Svg.escape(text));
                }
            }
        }
        int legendY = TOP + matrix.rows().size() * HEIGHT + 20;
        int x = 10;
        for (String outcome : List.of("starves", "collapses", "free", "501", "refused")) {
            svg.add("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"%s\"/><text x=\"%d\" y=\"%d\">%s</text>", x, legendY, FILL.get(outcome),
                    x + 16, legendY + 10, outcome);
            x += 90;
        }
        return svg.add("<rect x=\"%d\" y=\"%d\" width=\"12\" height=\"12\" fill=\"white\" stroke=\"#ff7f0e\" stroke-width=\"3\"/><text x=\"%d\" y=\"%d\">"
                + "differs from the prediction</text>", x, legendY, x + 16, legendY + 10).end();
    }
}
