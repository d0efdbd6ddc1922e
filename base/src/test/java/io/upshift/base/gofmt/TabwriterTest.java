package io.upshift.base.gofmt;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TabwriterTest {
    @Test
    void padsCellsToTheWidestPlusThreeAndLeavesTheLastCellAlone() {
        String out =
                new Tabwriter().write("NAME\tAGE\tNOTE\n").write("a-long-name\t1\tx\n").flush();
        assertThat(out).isEqualTo("NAME          AGE   NOTE\na-long-name   1     x\n");
    }

    @Test
    void anEmptyLastCellLeavesTrailingPadding() {
        String out = new Tabwriter().write("A\tB\tMESSAGE\n").write("x\t?\t\n").flush();
        assertThat(out).isEqualTo("A   B   MESSAGE\nx   ?   \n");
    }

    @Test
    void continuationLinesOfAMultiLineMessageAlignUnderTheLastColumn() {
        String out =
                new Tabwriter()
                        .write("NAME\tSINCE\tMESSAGE\n")
                        .write("op\t2m\tfirst line\n")
                        .write("\t\tsecond line\n")
                        .flush();
        assertThat(out)
                .isEqualTo(
                        "NAME   SINCE   MESSAGE\nop     2m      first line\n"
                                + " ".repeat(15)
                                + "second line\n");
    }

    @Test
    void aLineWithoutTabsEndsTheColumnBlock() {
        String out =
                new Tabwriter()
                        .write("a\tb\n")
                        .write("separator\n")
                        .write("much-longer\tc\n")
                        .flush();
        assertThat(out).isEqualTo("a   b\nseparator\nmuch-longer   c\n");
    }

    @Test
    void widthsCountRunesNotBytesOrDisplayColumns() {
        String out = new Tabwriter().write("日本語\tx\n").write("ab\ty\n").flush();
        assertThat(out).isEqualTo("日本語   x\nab    y\n");
    }

    @Test
    void textAfterTheLastNewlineHasNoNewline() {
        assertThat(new Tabwriter().write("a\tb\nc\td").flush()).isEqualTo("a   b\nc   d");
    }

    @Test
    void minimumWidthWidensShortColumns() {
        // as oc adm upgrade recommend lays out its VERSION table: minwidth 14, padding 1
        assertThat(new Tabwriter(14, 1).write("  VERSION\tISSUES\n  4.16.32\tnone\n").flush())
                .isEqualTo("  VERSION     ISSUES\n  4.16.32     none\n");
        assertThat(new Tabwriter(14, 1).write("  a-very-long-version\tx\n").flush())
                .isEqualTo("  a-very-long-version x\n");
    }
}
