package io.upshift.base.gofmt;

import java.util.ArrayList;
import java.util.List;

/**
 * Go's {@code text/tabwriter} with space padding (default minwidth 0, padding 3), which is how
 * {@code oc} lays out its tables (https://pkg.go.dev/text/tabwriter). Cells are tab-terminated; the
 * text after the last tab of a line is not part of a column and is never padded. A column block is
 * a run of consecutive lines that all have a cell in that column; its width is the widest cell plus
 * the padding. Widths count code points, as Go counts runes.
 */
public final class Tabwriter {
    private final int minWidth;
    private final int padding;
    private final StringBuilder text = new StringBuilder();

    /** oc's status tables: minwidth 0, padding 3. */
    public Tabwriter() {
        this(0, 3);
    }

    /**
     * Go's {@code tabwriter.NewWriter(out, minWidth, _, padding, ' ', _)}: a column is at least
     * minWidth wide.
     */
    public Tabwriter(int minWidth, int padding) {
        this.minWidth = minWidth;
        this.padding = padding;
    }

    public Tabwriter write(String s) {
        text.append(s);
        return this;
    }

    /** Lays out everything written so far and returns it; the writer is empty afterwards. */
    public String flush() {
        String[] rawLines = text.toString().split("\n", -1);
        text.setLength(0);
        List<String[]> lines = new ArrayList<>(rawLines.length);
        for (String raw : rawLines) {
            lines.add(raw.split("\t", -1));
        }
        StringBuilder out = new StringBuilder();
        format(out, lines, new ArrayList<>(), 0, lines.size());
        return out.toString();
    }

    private int format(
            StringBuilder out, List<String[]> lines, List<Integer> widths, int line0, int line1) {
        int column = widths.size();
        for (int current = line0; current < line1; current++) {
            if (column >= lines.get(current).length - 1) {
                continue;
            }
            // A cell in this column starts a block: print the lines before it, then size the block.
            writeLines(out, lines, widths, line0, current);
            line0 = current;
            int width = minWidth;
            for (; current < line1; current++) {
                String[] cells = lines.get(current);
                if (column >= cells.length - 1) {
                    break;
                }
                width = Math.max(width, runes(cells[column]) + padding);
            }
            widths.add(width);
            line0 = format(out, lines, widths, line0, current);
            widths.remove(widths.size() - 1);
            current = line0 - 1;
        }
        writeLines(out, lines, widths, line0, line1);
        return line1;
    }

    private static void writeLines(
            StringBuilder out, List<String[]> lines, List<Integer> widths, int line0, int line1) {
        for (int i = line0; i < line1; i++) {
            String[] cells = lines.get(i);
            for (int j = 0; j < cells.length; j++) {
                out.append(cells[j]);
                if (j < widths.size() && j < cells.length - 1) {
                    out.append(" ".repeat(Math.max(0, widths.get(j) - runes(cells[j]))));
                }
            }
            // The last element is the text after the final newline; it has no newline of its own.
            if (i + 1 < lines.size()) {
                out.append('\n');
            }
        }
    }

    private static int runes(String s) {
        return s.codePointCount(0, s.length());
    }
}
