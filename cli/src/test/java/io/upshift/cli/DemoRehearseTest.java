package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code upshift demo --rehearse}, small: the demo's update is rehearsed read only before it is
 * asked for, and the demo ends with the prediction next to what the update took.
 */
@Tag("e2e")
class DemoRehearseTest {
    static final Pattern LAST =
            Pattern.compile(
                    "\nrehearsal: predicted ([0-9]+\\.[0-9]) s, took ([0-9]+\\.[0-9]) s\n$");

    @Test
    void theRehearsalPredictsTheUpdateWithinAFifthOfWhatItTook() {
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
        double predicted = Double.parseDouble(last.group(1));
        double took = Double.parseDouble(last.group(2));
        // the bound the demo promises: the prediction within a fifth of what the update took
        assertThat(Math.abs(predicted - took)).as(r.out()).isLessThanOrEqualTo(0.2 * took);
    }
}
