package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * History over its limit loses its least informative entry, as upstream ranks them, not its oldest.
 */
class HistoryPruningTest {

    /** Entries newest first, each "C 4.8.2" (Completed) or "P 4.8.3" (Partial). */
    static List<UpdateHistory> history(String... entries) {
        List<UpdateHistory> out = new ArrayList<>();
        for (String e : entries) {
            UpdateHistory h = new UpdateHistory();
            h.setState(e.startsWith("C ") ? History.COMPLETED : History.PARTIAL);
            h.setVersion(e.substring(2));
            h.setImage("img-" + e.substring(2));
            out.add(h);
        }
        return out;
    }

    static List<String> versions(List<UpdateHistory> h) {
        return h.stream()
                .map(e -> (History.COMPLETED.equals(e.getState()) ? "C " : "P ") + e.getVersion())
                .toList();
    }

    @Test
    void aPartialBetweenPatchReleasesGoesFirstThenACompletedInsideItsMinor() {
        List<UpdateHistory> h =
                history(
                        "C 4.9.2", "C 4.9.1", "C 4.9.0", "C 4.8.5", "C 4.8.4", "P 4.8.3", "C 4.8.2",
                        "P 4.8.0", "C 4.7.9", "C 4.7.8", "C 4.7.0");
        // the Partial 4.8.3 lies between Completed 4.8.2 and 4.8.4: least informative, though newer
        // than most
        assertThat(versions(HistoryPruning.prune(h, 10)))
                .doesNotContain("P 4.8.3")
                .contains("C 4.7.8")
                .hasSize(10);
        // next: 4.7.8, neither the first nor the last Completed of 4.7; the Partial 4.8.0 of the
        // 4.7 -> 4.8 move stays
        assertThat(versions(HistoryPruning.prune(h, 9)))
                .containsExactly(
                        "C 4.9.2", "C 4.9.1", "C 4.9.0", "C 4.8.5", "C 4.8.4", "C 4.8.2", "P 4.8.0",
                        "C 4.7.9", "C 4.7.0");
    }

    @Test
    void theInitialInstallTheNewestFiveAndTheMostRecentCompletedAlwaysStay() {
        List<UpdateHistory> h =
                history(
                        "P 4.10.7",
                        "P 4.10.6",
                        "P 4.10.5",
                        "P 4.10.4",
                        "P 4.10.3",
                        "P 4.10.2",
                        "P 4.10.1",
                        "C 4.9.3",
                        "C 4.9.2",
                        "C 4.9.1");
        assertThat(versions(HistoryPruning.prune(h, 7)))
                .containsExactly(
                        "P 4.10.7",
                        "P 4.10.6",
                        "P 4.10.5",
                        "P 4.10.4",
                        "P 4.10.3",
                        "C 4.9.3",
                        "C 4.9.1");
    }

    @Test
    void amongCompletedMinorsTheOlderGoesButNeverTheInstall() {
        List<String> entries = new ArrayList<>();
        for (int minor = 12; minor >= 1; minor--) entries.add("C 4." + minor + ".0");
        List<String> pruned =
                versions(HistoryPruning.prune(history(entries.toArray(String[]::new)), 11));
        assertThat(pruned).doesNotContain("C 4.2.0").contains("C 4.1.0", "C 4.3.0");
    }

    @Test
    void historyBeginPrunesAtTheLimit() {
        List<UpdateHistory> h =
                History.complete(
                        History.begin(
                                List.of(),
                                "4.1.0",
                                "img-4.1.0",
                                true,
                                "",
                                ClusterVersionRulesTest.T0),
                        "img-4.1.0",
                        ClusterVersionRulesTest.T0);
        for (int i = 0; i < History.MAX + 5; i++) {
            h =
                    History.begin(
                            h,
                            "4.2." + i,
                            "img-4.2." + i,
                            true,
                            "",
                            ClusterVersionRulesTest.T0.plusSeconds(i));
            if (i % 3 == 0)
                h = History.complete(h, "img-4.2." + i, ClusterVersionRulesTest.T0.plusSeconds(i));
        }
        assertThat(h).hasSize(History.MAX);
        assertThat(h.get(0).getVersion()).isEqualTo("4.2." + (History.MAX + 4));
        assertThat(h.get(h.size() - 1).getVersion()).isEqualTo("4.1.0");
        // the first Completed entry of 4.2 stays: it is where the cluster entered that minor
        assertThat(h).extracting(UpdateHistory::getVersion).contains("4.2.0");
    }
}
