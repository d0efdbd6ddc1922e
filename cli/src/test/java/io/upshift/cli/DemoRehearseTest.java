package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code upshift demo --rehearse}, small: the demo's update is rehearsed read only before it is
 * asked for, and the demo ends with the prediction next to what the update took. How close the two
 * are is a measured figure (docs/benchmarks.md), not asserted here: it depends on the machine's
 * load.
 */
@Tag("e2e")
class DemoRehearseTest {
    static final Pattern LAST =
            Pattern.compile(
                    "\nrehearsal: predicted ([0-9]+\\.[0-9]) s, took ([0-9]+\\.[0-9]) s\n$");
    static final Pattern TOTAL = Pattern.compile("\nControl plane: .* Total: ([0-9]+\\.[0-9])s ");
    static final Pattern TOOK = Pattern.compile("\nestimate: .*; took ([0-9]+\\.[0-9]) s\n");

    @Test
    void theDemoEndsWithTheRehearsalsPredictionNextToWhatTheUpdateTook() {
        CliRun.Result r =
                CliRun.run(
                        "demo",
                        "--operators",
                        "6",
                        "--run-levels",
                        "3",
                        "--rollout-seconds",
                        "1",
                        "--masters",
                        "1",
                        "--workers",
                        "2",
                        "--plain",
                        "--rehearse");
        assertThat(r.code()).as(r.err()).isZero();
        assertThat(r.out())
                .contains("Rehearsing the update first (read only) ...")
                .contains(
                        "Rehearsal of the update from 4.18.1 to 4.18.2, read from the demo's API"
                                + " server")
                .contains("Nothing found that would refuse or stall this update.")
                .containsSubsequence(
                        "Installed 4.18.1 in ",
                        "Rehearsing the update first (read only) ...",
                        "= Predicted timeline =",
                        "Requesting the update to 4.18.2.",
                        "ClusterVersion Progressing=False: Cluster version is 4.18.2");
        Matcher last = LAST.matcher(r.out());
        assertThat(last.find()).as(r.out()).isTrue();
        // the prediction is the rehearsal's total, and what it took the demo's own measure
        Matcher total = TOTAL.matcher(r.out());
        assertThat(total.find()).as(r.out()).isTrue();
        assertThat(last.group(1)).isEqualTo(total.group(1));
        Matcher estimate = TOOK.matcher(r.out());
        assertThat(estimate.find()).as(r.out()).isTrue();
        assertThat(last.group(2)).isEqualTo(estimate.group(1));
    }
}
