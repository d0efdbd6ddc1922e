package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.demo.DemoRun;
import io.upshift.graph.server.GraphService;
import io.upshift.graph.server.GraphSource;
import io.upshift.releases.image.Architectures;
import io.upshift.testkit.LocalRegistry;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift upgrade --to-multi-arch} for real, on the embedded cluster with Upshift's graph
 * service: the controller asks the graph for {@code arch=multi}; while the graph has no
 * multi-architecture release of the cluster's version, the update graph says so in upstream's words
 * and nothing moves; once it has one (a manifest list in Debian's {@code docker-registry}, signed),
 * the cluster moves to it, verified as any release, the architecture recorded in {@code
 * status.desired}, and afterwards asks the multi-architecture graph for its updates.
 */
@Tag("e2e")
class ToMultiArchTest {

    @TempDir Path dir;

    final HttpClient http = HttpClient.newHttpClient();

    @Test
    void theClusterMovesToItsVersionsMultiArchitectureReleaseOnceTheGraphHasOne() throws Exception {
        try (LocalRegistry registry =
                        LocalRegistry.start(
                                Files.createDirectories(dir.resolve("registry")), null, null);
                DemoRun demo =
                        new DemoRun(
                                        new DemoRun.Settings(
                                                3,
                                                2,
                                                Duration.ofMillis(200),
                                                5,
                                                Files.createDirectories(dir.resolve("demo"))),
                                        l -> {})
                                .start()) {
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(90), () -> {})).isTrue();
            String kubeconfig =
                    Files.writeString(
                                    dir.resolve("kubeconfig"), demo.cluster().server().kubeconfig())
                            .toString();

            Path releases = Files.createDirectories(dir.resolve("graph/releases"));
            Path data = Files.createDirectories(dir.resolve("graph/data/channels"));
            Files.writeString(data.resolveSibling("version"), "1.1.0");
            Files.writeString(
                    data.resolve("stable-4.18.yaml"),
                    "name: stable-4.18\nversions: [4.18.1, 4.18.2]\n");
            release(releases, "4.18.1", "amd64", demo.releaseA());
            release(releases, "4.18.2", "amd64", demo.releaseB(), "4.18.1");
            try (GraphService graph =
                    GraphService.start(
                            GraphSource.files(releases, data.getParent()),
                            GraphService.Options.of(new InetSocketAddress("127.0.0.1", 0))
                                    .withPoll(Duration.ofMillis(200)),
                            Clock.systemUTC(),
                            l -> {})) {
                String upstream = "http://127.0.0.1:" + graph.port() + "/api/upgrades_info/graph";
                demo.cluster()
                        .client()
                        .resources(ClusterVersion.class)
                        .withName("version")
                        .edit(
                                cv -> {
                                    cv.getSpec().setUpstream(upstream);
                                    return cv;
                                });
                await("the amd64 graph's updates")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> available(demo).contains("4.18.2"));

                // no multi-architecture release of 4.18.1 in the graph: upstream's words
                CliRun.Result asked = run("upgrade", "--to-multi-arch", "--kubeconfig", kubeconfig);
                assertThat(asked.code()).as(asked.err()).isZero();
                assertThat(asked.out())
                        .isEqualTo("Requested update to multi cluster architecture\n");
                String notFound =
                        "Unable to retrieve available updates: currently reconciling cluster"
                                + " version 4.18.1 not found in the \"stable-4.18\" channel";
                ClusterOperatorStatusCondition retrieved =
                        await("the multi graph asked")
                                .atMost(Duration.ofSeconds(60))
                                .until(
                                        () -> condition(demo, "RetrievedUpdates"),
                                        c -> c != null && "False".equals(c.getStatus()));
                assertThat(retrieved.getReason()).isEqualTo("VersionNotFound");
                assertThat(retrieved.getMessage()).isEqualTo(notFound);
                assertThat(run("upgrade", "--kubeconfig", kubeconfig).err())
                        .contains(
                                "warning: Cannot display available updates:\n"
                                        + "  Reason: VersionNotFound\n"
                                        + "  Message: "
                                        + notFound
                                        + "\n");
                ClusterVersion still = demo.admin().clusterVersion();
                assertThat(still.getStatus().getHistory()).hasSize(1);
                assertThat(still.getStatus().getDesired().getImage()).isEqualTo(demo.releaseA());
                assertThat(run("upgrade", "--to-multi-arch", "--kubeconfig", kubeconfig).err())
                        .contains(
                                "info: Update to multi cluster architecture has already been"
                                        + " requested");

                // the graph gets the multi-architecture releases: a manifest list of 4.18.1,
                // signed with the demo's key, and a later one
                String multi =
                        demo.releases()
                                .publishMultiArch(
                                        "4.18.1",
                                        List.of(),
                                        registry.host(),
                                        "ocp/release",
                                        List.of(Architectures.current(), "s390x"));
                release(releases, "4.18.1", "multi", multi);
                release(
                        releases,
                        "4.18.2",
                        "multi",
                        registry.host() + "/ocp/release@sha256:" + "2".repeat(64),
                        "4.18.1");
                await("the graph serves the multi-architecture releases")
                        .atMost(Duration.ofSeconds(30))
                        .until(() -> served(upstream + "?channel=stable-4.18&arch=multi"));
                // asked again (the request changes, so the graph is asked at once)
                assertThat(run("upgrade", "--clear", "--kubeconfig", kubeconfig).code()).isZero();
                assertThat(run("upgrade", "--to-multi-arch", "--kubeconfig", kubeconfig).out())
                        .isEqualTo("Requested update to multi cluster architecture\n");

                await("the multi-architecture release applied")
                        .atMost(Duration.ofMinutes(2))
                        .until(
                                () -> {
                                    var h = demo.admin().clusterVersion().getStatus().getHistory();
                                    return h.size() == 2
                                            && multi.equals(h.get(0).getImage())
                                            && "Completed".equals(h.get(0).getState());
                                });
                ClusterVersion moved = demo.admin().clusterVersion();
                assertThat(moved.getStatus().getHistory())
                        .extracting(UpdateHistory::getVersion, UpdateHistory::getImage)
                        .containsExactly(
                                Tuple.tuple("4.18.1", multi),
                                Tuple.tuple("4.18.1", demo.releaseA()));
                // verified as any release: by its signature, with the running release's keys
                assertThat(moved.getStatus().getHistory().get(0).getVerified()).isTrue();
                assertThat(moved.getStatus().getDesired().getImage()).isEqualTo(multi);
                assertThat(moved.getStatus().getDesired().getArchitecture()).isEqualTo("Multi");
                assertThat(condition(demo, "ReleaseAccepted").getMessage())
                        .isEqualTo(
                                "Payload loaded version=\"4.18.1\" image=\""
                                        + multi
                                        + "\" architecture=\"Multi\"");
                // from now on the multi-architecture graph's edges are its updates
                await("the multi graph's updates")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> available(demo).contains("4.18.2 Multi"));
            }
        }
    }

    /** A release file of the graph service's. */
    private static void release(
            Path releases, String version, String arch, String payload, String... previous)
            throws Exception {
        String metadata =
                arch.equals("multi") ? "{\"release.openshift.io/architecture\":\"multi\"}" : "{}";
        Files.writeString(
                releases.resolve(version + "-" + arch + ".json"),
                "{\"version\":\""
                        + version
                        + "\",\"previous\":["
                        + (previous.length == 0 ? "" : "\"" + String.join("\",\"", previous) + "\"")
                        + "],\"metadata\":"
                        + metadata
                        + ",\"architecture\":\""
                        + arch
                        + "\",\"payload\":\""
                        + payload
                        + "\"}");
    }

    private boolean served(String url) throws Exception {
        HttpResponse<String> r =
                http.send(
                        HttpRequest.newBuilder(URI.create(url)).build(),
                        HttpResponse.BodyHandlers.ofString());
        return r.statusCode() == 200 && r.body().contains("\"4.18.1\"");
    }

    /** The available updates, as "VERSION ARCHITECTURE". */
    private static List<String> available(DemoRun demo) {
        var s = demo.admin().clusterVersion().getStatus();
        if (s == null || s.getAvailableUpdates() == null) return List.of();
        return s.getAvailableUpdates().stream()
                .map(
                        (Release r) ->
                                r.getVersion()
                                        + (r.getArchitecture() == null
                                                ? ""
                                                : " " + r.getArchitecture()))
                .toList();
    }

    private static ClusterOperatorStatusCondition condition(DemoRun demo, String type) {
        ClusterVersion cv = demo.admin().clusterVersion();
        return cv.getStatus() == null
                ? null
                : Conditions.CLUSTER.find(cv.getStatus().getConditions(), type);
    }
}
