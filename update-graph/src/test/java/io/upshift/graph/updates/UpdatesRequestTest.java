package io.upshift.graph.updates;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.metadata.ReleaseMetadata;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UpdatesRequestTest {

    @Test
    void theGraphIsAskedForTheControllersArchitectureOrMultiForAMultiArchitectureRelease() {
        assertThat(UpdatesRequest.architecture(null, "arm64")).isEqualTo("arm64");
        assertThat(UpdatesRequest.architecture("", "amd64")).isEqualTo("amd64");
        assertThat(UpdatesRequest.architecture("Multi", "arm64")).isEqualTo("multi");
        assertThat(
                        new UpdatesRequest(
                                        "https://graph.example/api",
                                        "stable-4.19",
                                        UpdatesRequest.architecture("Multi", "amd64"),
                                        "0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11",
                                        "4.19.0")
                                .uri()
                                .toString())
                .isEqualTo(
                        "https://graph.example/api?arch=multi&channel=stable-4.19&id=0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11&version=4.19.0");
    }

    /**
     * spec.desiredUpdate.architecture Multi asks the multi graph; the cluster moves to Multi while
     * what it runs is not yet.
     */
    @Test
    void multiAskedForIsTheGraphsArchitectureAndAMoveUntilTheClusterRunsIt() {
        assertThat(UpdatesRequest.desiredArchitecture("Multi", "amd64")).isEqualTo("multi");
        assertThat(UpdatesRequest.desiredArchitecture(null, "amd64")).isEqualTo("amd64");
        assertThat(UpdatesRequest.desiredArchitecture("", "multi")).isEqualTo("multi");
        String id = "0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11";
        assertThat(new UpdatesRequest("u", "c", "multi", id, "4.19.0", "amd64").migratingToMulti())
                .isTrue();
        assertThat(new UpdatesRequest("u", "c", "multi", id, "4.19.0", "multi").migratingToMulti())
                .isFalse();
        assertThat(new UpdatesRequest("u", "c", "amd64", id, "4.19.0").migratingToMulti())
                .isFalse();
        // the move changes the request, so the graph is asked again once the cluster runs Multi
        assertThat(new UpdatesRequest("u", "c", "multi", id, "4.19.0", "amd64"))
                .isNotEqualTo(new UpdatesRequest("u", "c", "multi", id, "4.19.0", "multi"));
    }

    @Test
    void aReleaseIsTheControllersArchitectureUnlessItIsMultiArchitecture() {
        var plain = new ReleaseMetadata("4.19.0", List.of(), List.of(), Map.of());
        var multi =
                new ReleaseMetadata(
                        "4.19.0",
                        List.of(),
                        List.of(),
                        Map.of("release.openshift.io/architecture", "multi"));
        assertThat(plain.clusterArchitecture("arm64")).isEqualTo("arm64");
        assertThat(multi.clusterArchitecture("arm64")).isEqualTo("Multi");
    }

    @Test
    void specUpstreamElseTheControllersDefault() {
        assertThat(
                        UpdatesRequest.upstream(
                                "https://mine.example/graph", UpdatesRequest.DEFAULT_UPSTREAM))
                .isEqualTo("https://mine.example/graph");
        assertThat(UpdatesRequest.upstream(null, UpdatesRequest.DEFAULT_UPSTREAM))
                .isEqualTo("https://api.openshift.com/api/upgrades_info/v1/graph");
        assertThat(UpdatesRequest.upstream("", null)).isEmpty();
    }
}
