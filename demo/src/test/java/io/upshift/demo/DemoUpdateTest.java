package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.api.schema.CrdSchema;
import io.upshift.base.conditions.Conditions;
import io.upshift.testkit.Faults;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * End to end on the embedded API server: the real controller installs release A and updates to B,
 * also while it is killed at random moments; every manifest ends applied, history holds one entry
 * per release, status validates.
 */
@Tag("e2e")
class DemoUpdateTest {

    @TempDir Path dir;

    static DemoRun.Settings small(Path dir) {
        return new DemoRun.Settings(8, 4, Duration.ofMillis(300), 7, dir);
    }

    @Test
    void installsAndUpdates() throws Exception {
        try (DemoRun demo = new DemoRun(small(dir), l -> {}).start()) {
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(60), () -> {})).isTrue();
            demo.requestUpdate();
            assertThat(demo.admin().await(DemoRun.TO, Duration.ofSeconds(90), () -> {})).isTrue();
            assertUpdatedOnce(demo);
            ClusterVersion cv = demo.admin().clusterVersion();
            assertThat(
                            Conditions.CLUSTER
                                    .find(cv.getStatus().getConditions(), "Available")
                                    .getMessage())
                    .isEqualTo("Done applying " + DemoRun.TO);
            assertThat(
                            Conditions.CLUSTER
                                    .find(cv.getStatus().getConditions(), "Progressing")
                                    .getMessage())
                    .isEqualTo("Cluster version is " + DemoRun.TO);
            assertThat(
                            Conditions.CLUSTER
                                    .find(cv.getStatus().getConditions(), "ReleaseAccepted")
                                    .getReason())
                    .isEqualTo("PayloadLoaded");
            assertThat(
                            Conditions.CLUSTER
                                    .find(cv.getStatus().getConditions(), "Failing")
                                    .getStatus())
                    .isEqualTo("False");
            assertThat(cv.getStatus().getHistory().get(0).getVerified()).isTrue();
            assertThat(cv.getStatus().getDesired().getVersion()).isEqualTo(DemoRun.TO);
            // the controller's own Deployment changed in run-level 0: Kubernetes replaced it, and
            // it went on
            assertThat(demo.cluster().controller().restarts()).isGreaterThanOrEqualTo(1);
            // the target's payload came through a Job whose steps ran the release image's own
            // tools, whole into its directory
            var pods =
                    demo.cluster()
                            .server()
                            .client()
                            .pods()
                            .inNamespace("openshift-cluster-version")
                            .withLabel("upshift.io/payload-retrieval", "true")
                            .list()
                            .getItems();
            assertThat(pods).hasSize(1);
            assertThat(pods.get(0).getStatus().getPhase()).isEqualTo("Succeeded");
            assertThat(pods.get(0).getStatus().getInitContainerStatuses())
                    .extracting(c -> c.getName() + " " + c.getState().getTerminated().getExitCode())
                    .containsExactly(
                            "cleanup 0",
                            "make-temporary-directory 0",
                            "copy-operator-manifests-to-temporary-directory 0",
                            "copy-release-manifests-to-temporary-directory 0");
            try (var entries = Files.list(demo.cluster().controller().payloads())) {
                assertThat(entries.map(e -> e.getFileName().toString()))
                        .as("the running release's and the target's, no partial copy")
                        .hasSize(2)
                        .allMatch(n -> n.matches("[0-9a-f]{10}"));
            }
            assertThat(demo.cluster().server().dispatcher().accessRefusals())
                    .as("requests deploy/rbac.yaml does not allow")
                    .isEmpty();
        }
    }

    @Test
    void survivesBeingKilledAtFiftyRandomMoments() throws Exception {
        // slow rollouts, so that all fifty kills land while the update is under way (any moment:
        // mid-write or not)
        try (DemoRun demo =
                new DemoRun(new DemoRun.Settings(8, 4, Duration.ofSeconds(2), 7, dir), l -> {})
                        .start()) {
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(60), () -> {})).isTrue();
            demo.requestUpdate();
            Random random = new Random(42);
            int kills = 0;
            for (; kills < 50 && !demo.admin().completed(DemoRun.TO); kills++) {
                Thread.sleep(random.nextInt(150));
                demo.cluster().controller().restart();
            }
            assertThat(kills).isEqualTo(50);
            assertThat(demo.admin().await(DemoRun.TO, Duration.ofMinutes(2), () -> {})).isTrue();
            assertUpdatedOnce(demo);
        }
    }

    @Test
    void completesWhenFivePercentOfApiRequestsFail() throws Exception {
        Faults faults = Faults.share(DemoController.USER_AGENT, 0.05, 11);
        // faults reach the controller itself: its client gives up at once
        try (DemoRun demo =
                new DemoRun(
                                small(dir)
                                        .withControllerClient(
                                                c ->
                                                        c.withRequestTimeout(1000)
                                                                .withRequestRetryBackoffLimit(0)),
                                l -> {})
                        .start()) {
            demo.cluster().server().dispatcher().faults(faults);
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(90), () -> {})).isTrue();
            demo.requestUpdate();
            assertThat(demo.admin().await(DemoRun.TO, Duration.ofMinutes(2), () -> {}))
                    .as(() -> conditions(demo))
                    .isTrue();
            assertUpdatedOnce(demo);
            // the controller reads from caches: its requests are its writes and the reads its
            // caches cannot serve
            assertThat(faults.failed.get())
                    .as("%d of %d requests failed", faults.failed.get(), faults.requests.get())
                    .isGreaterThanOrEqualTo(3);
            assertThat((double) faults.failed.get() / faults.requests.get()).isBetween(0.01, 0.15);
        }
    }

    /** The ClusterVersion's conditions, one a line, for a failure's message. */
    static String conditions(DemoRun demo) {
        ClusterVersion cv = demo.admin().clusterVersion();
        if (cv == null || cv.getStatus() == null) return "no ClusterVersion status";
        StringBuilder out = new StringBuilder();
        cv.getStatus()
                .getConditions()
                .forEach(
                        c ->
                                out.append(c.getType())
                                        .append('=')
                                        .append(c.getStatus())
                                        .append(' ')
                                        .append(c.getReason())
                                        .append(": ")
                                        .append(c.getMessage())
                                        .append('\n'));
        return out.toString();
    }

    static void assertUpdatedOnce(DemoRun demo) {
        ClusterVersion cv = demo.admin().clusterVersion();
        List<UpdateHistory> history = cv.getStatus().getHistory();
        assertThat(history)
                .extracting(UpdateHistory::getVersion)
                .containsExactly(DemoRun.TO, DemoRun.FROM);
        assertThat(history)
                .extracting(UpdateHistory::getState)
                .containsExactly("Completed", "Completed");
        for (ClusterOperator co :
                demo.cluster().client().resources(ClusterOperator.class).list().getItems()) {
            assertThat(co.getStatus().getVersions().get(0).getVersion())
                    .as(co.getMetadata().getName())
                    .isEqualTo(DemoRun.TO);
        }
        List<Deployment> deployments =
                demo.cluster().client().apps().deployments().inAnyNamespace().list().getItems();
        assertThat(deployments).hasSizeGreaterThan(8);
        assertThat(deployments)
                .allSatisfy(
                        d ->
                                assertThat(d.getMetadata().getAnnotations())
                                        .containsEntry(
                                                DemoPayloads.VERSION_ANNOTATION, DemoRun.TO));
        assertThat(CrdSchema.bundled("clusterversions.config.openshift.io", "v1").violations(cv))
                .isEmpty();
        for (ClusterOperator co :
                demo.cluster().client().resources(ClusterOperator.class).list().getItems()) {
            assertThat(
                            CrdSchema.bundled("clusteroperators.config.openshift.io", "v1")
                                    .violations(co))
                    .isEmpty();
        }
    }
}
