package io.upshift.status.model;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.core.JsonProcessingException;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.upshift.api.json.Mappers;
import io.upshift.api.update.Insight;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.status.synthetic.SyntheticCluster;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * What the controller writes and reads back from the API server (JSON, empty values dropped) must
 * settle into the very status it wrote: an insight that reads back as different gets a new
 * acquiredAt at every evaluation, and so a write every second on a level cluster.
 */
class InsightReadBackTest {
    private static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");

    @Test
    void aFreshlyInstalledClusterSettlesIntoWhatWasWritten() throws JsonProcessingException {
        ClusterState installed = installedOnly(new SyntheticCluster(6, 1, 4, 1.0, NOW).state());
        assertThat(
                        settled(installed)
                                .controlPlane()
                                .informers()
                                .get(0)
                                .insights()
                                .get(0)
                                .clusterVersion()
                                .versions()
                                .target()
                                .has("Installation"))
                .as("the fresh install's target version carries the Installation metadata")
                .isTrue();
        assertReadsBackTheSame(installed);
    }

    @Test
    void aClusterMidUpdateSettlesIntoWhatWasWritten() throws JsonProcessingException {
        assertReadsBackTheSame(new SyntheticCluster(30, 2, 6, 1.0, NOW).state());
        assertReadsBackTheSame(new SyntheticCluster(30, 2, 6, 0.5, NOW).state());
    }

    private static UpdateStatusStatus settled(ClusterState state) {
        return InsightHistory.settle(List.of(), UpdateAssessment.assess(state, NOW, NOW), NOW);
    }

    private static void assertReadsBackTheSame(ClusterState state) throws JsonProcessingException {
        UpdateStatusStatus written = settled(state);
        StatusObjects.Split split = StatusObjects.split(written);
        // read back as an API server answers: the JSON that was sent, into fresh objects
        List<Insight> readBack =
                new ArrayList<>(
                        Mappers.JSON
                                .readValue(
                                        Mappers.JSON.writeValueAsString(split.summary()),
                                        UpdateStatusStatus.class)
                                .insights());
        for (HasMetadata o : split.objects()) {
            Insight i =
                    StatusObjects.insight(
                            Mappers.JSON.readValue(
                                    Mappers.JSON.writeValueAsString(o), o.getClass()));
            if (i != null) readBack.add(i);
        }
        Instant later = NOW.plus(Duration.ofSeconds(1));
        UpdateStatusStatus again =
                InsightHistory.settle(
                        readBack, UpdateAssessment.assess(state, later, later), later);
        assertThat(again.insights())
                .extracting(Insight::uid, Insight::acquiredAt)
                .containsExactlyElementsOf(
                        written.insights().stream()
                                .map(i -> Tuple.tuple(i.uid(), i.acquiredAt()))
                                .toList());
        assertThat(again).isEqualTo(written);
    }

    /** The cluster as just installed: one history entry, the release it was installed with. */
    private static ClusterState installedOnly(ClusterState s) {
        ClusterVersion cv =
                new ClusterVersionBuilder(s.clusterVersion())
                        .editStatus()
                        .withHistory(s.clusterVersion().getStatus().getHistory().get(0))
                        .endStatus()
                        .build();
        return new ClusterState(
                cv,
                s.operators(),
                s.pools(),
                s.machineConfigs(),
                s.nodes(),
                s.mcoImage(),
                s.alerts(),
                s.drainEvents(),
                s.machineConfigNodes());
    }
}
