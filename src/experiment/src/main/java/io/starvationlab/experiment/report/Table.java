package io.starvationlab.experiment.report;

import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

/** A markdown table, row by row: each cell as it is given, each row as many cells as the header. */
final class Table {

    private final StringBuilder md = new StringBuilder();

    Table(List<String> headers) {
        row(headers);
        md.append("|---".repeat(headers.size())).append("|\n");
    }

    Table(String... headers) {
        this(List.of(headers));
    }

    Table row(Object... cells) {
        return row(Arrays.asList(cells));
    }

    Table row(List<?> cells) {
        md.append(cells.stream().map(String::valueOf).collect(Collectors.joining(" | ", "| ", " |\n")));
        return this;
    }

    @Override
    public String toString() {
        return md.toString();
    }
}
