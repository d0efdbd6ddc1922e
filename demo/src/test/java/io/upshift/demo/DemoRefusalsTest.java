package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.base.conditions.Conditions;
import io.upshift.clusterversion.model.Failing;
import io.upshift.testkit.Faults;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the controller refuses, and how it says so, on the embedded API server. */
@Tag("e2e")
class DemoRefusalsTest {

    @TempDir Path dir;

    static ClusterOperatorStatusCondition condition(DemoRun demo, String type) {
        ClusterVersion cv = demo.admin().clusterVersion();
        return cv.getStatus() == null
                ? null
                : Conditions.CLUSTER.find(cv.getStatus().getConditions(), type);
    }

    static ClusterOperatorStatusCondition awaitCondition(
            DemoRun demo, String type, Predicate<ClusterOperatorStatusCondition> want) {
        return await(type)
                .atMost(Duration.ofSeconds(60))
                .until(() -> condition(demo, type), c -> c != null && want.test(c));
    }

    DemoRun installed() throws Exception {
        return installed(new DemoRun.Settings(4, 2, Duration.ofMillis(200), 3, dir));
    }

    static DemoRun installed(DemoRun.Settings settings) throws Exception {
        DemoRun demo = new DemoRun(settings, l -> {}).start();
        assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(60), () -> {})).isTrue();
        return demo;
    }

    @Test
    void anUnsignedReleaseIsRefusedUnlessForced() throws Exception {
        try (DemoRun demo = installed()) {
            String unsigned = demo.releases().publish("4.18.3", List.of(DemoRun.FROM), false);
            demo.admin().requestUpdate("4.18.3", unsigned, false);
            ClusterOperatorStatusCondition refused =
                    awaitCondition(demo, "ReleaseAccepted", c -> "False".equals(c.getStatus()));
            assertThat(refused.getReason()).isEqualTo("RetrievePayload");
            assertThat(refused.getMessage())
                    .contains(
                            "The update cannot be verified: SignatureMissing: no signature for"
                                    + " sha256:");
            assertThat(demo.admin().clusterVersion().getStatus().getHistory()).hasSize(1);

            demo.admin().requestUpdate("4.18.3", unsigned, true);
            assertThat(demo.admin().await("4.18.3", Duration.ofSeconds(60), () -> {})).isTrue();
            var top = demo.admin().clusterVersion().getStatus().getHistory().get(0);
            assertThat(top.getVerified()).isFalse();
            // upstream's words for a release forced through without a signature, then (a line
            // each) the preconditions' warnings: no update graph here
            assertThat(top.getAcceptedRisks())
                    .startsWith(
                            "Target release version=\"4.18.3\" image=\""
                                    + unsigned
                                    + "\" cannot be verified, but continuing anyway because the"
                                    + " update was forced: SignatureMissing")
                    .endsWith(
                            "\nPrecondition \"ClusterVersionRecommendedUpdate\" failed because of"
                                    + " \"UnknownUpdate\": RetrievedUpdates=False (NoUpstream), so"
                                    + " the recommended status of updating from 4.18.1 to 4.18.3 is"
                                    + " unknown.");
            List<Event> events =
                    demo.cluster().client().v1().events().inNamespace("default").list().getItems();
            assertThat(events)
                    .anyMatch(
                            e ->
                                    "Warning".equals(e.getType())
                                            && "RetrievePayload".equals(e.getReason())
                                            && top.getAcceptedRisks()
                                                    .startsWith(e.getMessage() + "\n"));
        }
    }

    @Test
    void aPayloadOfAnotherVersionIsRefused() throws Exception {
        try (DemoRun demo = installed()) {
            demo.admin().requestUpdate("4.18.5", demo.releaseB(), false);
            ClusterOperatorStatusCondition refused =
                    awaitCondition(demo, "ReleaseAccepted", c -> "False".equals(c.getStatus()));
            assertThat(refused.getReason()).isEqualTo("VerifyPayloadVersion");
            assertThat(refused.getMessage())
                    .isEqualTo(
                            "release image version 4.18.2 does not match the expected upstream"
                                    + " version 4.18.5");
        }
    }

    @Test
    void aVersionWithoutImageOrRecommendationIsInvalidAndIgnored() throws Exception {
        try (DemoRun demo = installed()) {
            demo.admin().requestUpdate("4.18.9", null, false);
            ClusterOperatorStatusCondition invalid =
                    awaitCondition(demo, "Invalid", c -> "True".equals(c.getStatus()));
            assertThat(invalid.getReason()).isEqualTo("InvalidClusterVersion");
            assertThat(invalid.getMessage())
                    .isEqualTo(
                            "The cluster version is invalid: spec.desiredUpdate.version: Invalid"
                                + " value: \"4.18.9\": when image is empty the update must be an"
                                + " available update");
            demo.admin().requestUpdate("four", null, false);
            assertThat(
                            awaitCondition(
                                            demo,
                                            "Invalid",
                                            c ->
                                                    c.getMessage() != null
                                                            && c.getMessage().contains("\"four\""))
                                    .getMessage())
                    .endsWith("must be a semantic version (1.2.3[-...])");
            assertThat(demo.admin().clusterVersion().getStatus().getDesired().getVersion())
                    .isEqualTo(DemoRun.FROM);
        }
    }

    @Test
    void aManifestTheApiRejectsMakesFailingNameTheFileAndResource() throws Exception {
        try (DemoRun demo =
                new DemoRun(
                                new DemoRun.Settings(4, 2, Duration.ofMillis(200), 3, dir)
                                        .withControllerClient(
                                                c -> c.withRequestRetryBackoffLimit(0)),
                                l -> {})
                        .start()) {
            assertThat(demo.admin().await(DemoRun.FROM, Duration.ofSeconds(60), () -> {})).isTrue();
            demo.cluster()
                    .server()
                    .dispatcher()
                    .faults(
                            Faults.share(DemoController.USER_AGENT, 0, 1)
                                    .rejectWritesTo(
                                            "/deployments/etcd-operator",
                                            "Deployment.apps \"etcd-operator\" is invalid:"
                                                    + " spec.template.spec.containers[0].image:"
                                                    + " Required value"));
            demo.requestUpdate();
            ClusterOperatorStatusCondition failing =
                    awaitCondition(demo, "Failing", c -> "True".equals(c.getStatus()));
            assertThat(failing.getReason()).isEqualTo("UpdatePayloadFailed");
            assertThat(failing.getMessage())
                    .startsWith("Could not update Deployment \"openshift-etcd/etcd-operator\" (")
                    .contains(
                            "0000_10_etcd_01_deployment.yaml): Deployment.apps \"etcd-operator\" is"
                                    + " invalid");
            assertThat(demo.admin().clusterVersion().getStatus().getHistory().get(0).getState())
                    .isEqualTo("Partial");
        }
    }

    @Test
    void anOperatorDegradedPastTheThresholdMakesFailingNameIt() throws Exception {
        try (DemoRun demo =
                installed(
                        new DemoRun.Settings(4, 2, Duration.ofMillis(200), 3, dir)
                                .withControllerOptions(
                                        o ->
                                                o.withThresholds(
                                                        new Failing.Thresholds(
                                                                Duration.ofSeconds(1),
                                                                Duration.ofSeconds(2),
                                                                Map.of()))))) {
            String operator = DemoPayloads.components(4, 2).get(1).name();
            demo.cluster().simulation().degrade(operator);
            demo.requestUpdate();
            ClusterOperatorStatusCondition failing =
                    awaitCondition(demo, "Failing", c -> "True".equals(c.getStatus()));
            assertThat(failing.getReason()).isEqualTo("ClusterOperatorDegraded");
            assertThat(failing.getMessage())
                    .isEqualTo("Cluster operator " + operator + " is degraded");
            assertThat(condition(demo, "Progressing").getMessage())
                    .isEqualTo(
                            "Unable to apply "
                                    + DemoRun.TO
                                    + ": wait has exceeded 2s for these operators: "
                                    + operator);
        }
    }
}
