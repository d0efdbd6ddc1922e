package io.upshift.pools.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import org.junit.jupiter.api.Test;

class DaemonReadingsTest {
    static final Instant T = Instant.parse("2026-11-23T10:00:00Z");

    @Test
    void aRefusedDrainShowsHowLongByTheBudgetAndGoesWhenTheDrainEnds() {
        DaemonReadings r = DaemonReadings.NONE.drainRefused("shop/web", T);
        assertThat(r.render(T.plusSeconds(90)))
                .contains("upshift_drain_refused_seconds{budget=\"shop/web\"} 90\n")
                .contains("mcd_drain_err 0\n");
        DaemonReadings gaveUp = r.drainEnded(false);
        assertThat(gaveUp.render(T.plusSeconds(100)))
                .doesNotContain("upshift_drain_refused_seconds{")
                .contains("# TYPE upshift_drain_refused_seconds gauge\n")
                .contains("mcd_drain_err 1\n");
        assertThat(gaveUp.drainEnded(true).render(T)).contains("mcd_drain_err 0\n");
    }

    @Test
    void countersCountAndLabelValuesAreEscaped() {
        DaemonReadings r =
                DaemonReadings.NONE
                        .rebootFailed()
                        .rebootFailed()
                        .pivotFailed()
                        .updateEnded("rendered-worker-1", "failed: \"x\"\nnext", T)
                        .seen("Degraded", "a\\b", T);
        assertThat(r.render(T))
                .contains("# TYPE mcd_reboots_failed_total counter\nmcd_reboots_failed_total 2\n")
                .contains("mcd_pivot_errors_total 1\n")
                .contains(
                        "mcd_update_state{config=\"rendered-worker-1\",err=\"failed: \\\"x\\\"\\n"
                                + "next\"} 1795428000\n")
                .contains("mcd_state{state=\"Degraded\",reason=\"a\\\\b\"} 1795428000\n");
        // the same state seen again keeps its start
        assertThat(r.seen("Degraded", "a\\b", T.plusSeconds(5))).isSameAs(r);
    }
}
