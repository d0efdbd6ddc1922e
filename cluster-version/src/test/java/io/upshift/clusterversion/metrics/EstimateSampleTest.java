package io.upshift.clusterversion.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.upshift.status.estimate.RunLevelTimes;
import io.upshift.status.estimate.RunLevelTimes.Level;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The estimate row: while an update runs, its control plane's predicted end; none otherwise. */
class EstimateSampleTest {
    static final Instant T0 = Instant.parse("2026-11-20T10:00:00Z");
    static final String IMAGE = "example.com/release@sha256:b";

    static Level level(String runLevel, String operator, Integer startedAt, Integer doneAt) {
        return new Level(
                runLevel,
                3,
                operator == null ? List.of() : List.of(operator),
                startedAt == null ? null : RunLevelTimes.format(T0.plusSeconds(startedAt)),
                doneAt == null ? null : RunLevelTimes.format(T0.plusSeconds(doneAt)));
    }

    static ClusterVersion cv(String state) {
        RunLevelTimes times =
                new RunLevelTimes(
                        IMAGE,
                        "1.1.0",
                        List.of(
                                level("00", null, 0, 2),
                                level("10", "etcd", 2, 12),
                                level("20", "network", 12, null),
                                level("30", "dns", null, null)),
                        null);
        return new ClusterVersionBuilder()
                .withNewMetadata()
                .withName("version")
                .addToAnnotations(RunLevelTimes.ANNOTATION, times.toAnnotation())
                .endMetadata()
                .withNewStatus()
                .withNewDesired()
                .withImage(IMAGE)
                .withVersion("1.1.0")
                .endDesired()
                .addNewHistory()
                .withState(state)
                .withImage(IMAGE)
                .withVersion("1.1.0")
                .endHistory()
                .endStatus()
                .build();
    }

    @Test
    void anUpdateUnderWayHasItsPredictedEndAndItStaysPutOnceLate() {
        // as of the last progress (20 started at second 12): 20 takes 10 s as 10 did, 30 10 s more,
        // so the end is at 32
        Sample early = EstimateSample.of(cv("Partial"), T0.plusSeconds(16)).orElseThrow();
        assertThat(early.name()).isEqualTo("upshift_update_estimated_completion_timestamp_seconds");
        assertThat(early.value()).isEqualTo((double) T0.plusSeconds(32).getEpochSecond());
        assertThat(early.labels()).containsEntry("version", "1.1.0");
        // an hour later, still on 20: the estimate does not follow the clock, so an alert can
        // compare it with now
        assertThat(EstimateSample.of(cv("Partial"), T0.plusSeconds(3600)).orElseThrow().value())
                .isEqualTo(early.value());
    }

    @Test
    void noRowOnceTheUpdateCompletedOrWithoutTimes() {
        assertThat(EstimateSample.of(cv("Completed"), T0.plusSeconds(16))).isEmpty();
        ClusterVersion none = cv("Partial");
        none.getMetadata().getAnnotations().clear();
        assertThat(EstimateSample.of(none, T0.plusSeconds(16))).isEmpty();
        assertThat(EstimateSample.of(null, T0)).isEmpty();
    }
}
