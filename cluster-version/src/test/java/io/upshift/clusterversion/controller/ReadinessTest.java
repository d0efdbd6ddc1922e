package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.upshift.clusterversion.model.OperatorLevel;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.manifest.ManifestReader;
import io.upshift.releases.taskgraph.Mode;
import org.junit.jupiter.api.Test;

/**
 * Readiness per kind and mode as upstream's resource builder judges it, and judged from what the
 * task wrote, not from a cache that has not seen the write yet.
 */
class ReadinessTest {

    static Manifest manifest(String kind, String apiVersion) throws Exception {
        return ManifestReader.read(
                        "0000_50_test_01_x.yaml",
                        "apiVersion: "
                                + apiVersion
                                + "\nkind: "
                                + kind
                                + "\nmetadata:\n  name: web\n  namespace: ns\n")
                .get(0);
    }

    static GenericKubernetesResource object(
            String kind, String apiVersion, String metadata, String status) {
        return Serialization.unmarshal(
                "{\"apiVersion\":\""
                        + apiVersion
                        + "\",\"kind\":\""
                        + kind
                        + "\",\"metadata\":{\"name\":\"web\",\"namespace\":\"ns\""
                        + metadata
                        + "},\"status\":"
                        + status
                        + "}",
                GenericKubernetesResource.class);
    }

    static GenericKubernetesResource deployment(
            String uid, long generation, long observedGeneration, String conditions) {
        return object(
                "Deployment",
                "apps/v1",
                ",\"uid\":\"" + uid + "\",\"generation\":" + generation,
                "{\"observedGeneration\":"
                        + observedGeneration
                        + ",\"replicas\":3,\"updatedReplicas\":1,\"availableReplicas\":2,\"conditions\":"
                        + conditions
                        + "}");
    }

    static final String ROLLING =
            "[{\"type\":\"Available\",\"status\":\"True\"},{\"type\":\"Progressing\",\"status\":\"True\",\"reason\":\"ReplicaSetUpdated\"}]";
    static final String DEADLINE =
            "[{\"type\":\"Available\",\"status\":\"True\"},{\"type\":\"Progressing\",\"status\":\"False\",\"reason\":\"ProgressDeadlineExceeded\",\"message\":\"ReplicaSet"
                + " web-1 has timed out progressing.\"}]";

    @Test
    void aDeploymentRollingOutOrShortOfAPodIsNoReasonToWaitButAFailedOneFails() throws Exception {
        Manifest m = manifest("Deployment", "apps/v1");
        assertThat(Readiness.check(m, deployment("u1", 2, 2, ROLLING), Mode.UPDATING)).isNull();
        Readiness.NotReady deadline =
                Readiness.check(m, deployment("u1", 2, 2, DEADLINE), Mode.UPDATING);
        assertThat(deadline.reason()).isEqualTo("WorkloadNotProgressing");
        assertThat(deadline.effect()).isEqualTo(OperatorLevel.Effect.FAIL);
        assertThat(deadline.message())
                .contains("ProgressDeadlineExceeded", "timed out progressing");
        Readiness.NotReady replicaFailure =
                Readiness.check(
                        m,
                        deployment(
                                "u1",
                                2,
                                2,
                                "[{\"type\":\"ReplicaFailure\",\"status\":\"True\",\"reason\":\"FailedCreate\",\"message\":\"quota"
                                    + " exceeded\"}]"),
                        Mode.RECONCILING);
        assertThat(replicaFailure.reason()).isEqualTo("WorkloadNotProgressing");
        assertThat(replicaFailure.message()).contains("FailedCreate", "quota exceeded");
        Readiness.NotReady down =
                Readiness.check(
                        m,
                        deployment(
                                "u1",
                                2,
                                2,
                                "[{\"type\":\"Available\",\"status\":\"False\",\"reason\":\"MinimumReplicasUnavailable\"},{\"type\":\"Progressing\",\"status\":\"False\"}]"),
                        Mode.UPDATING);
        assertThat(down.reason()).isEqualTo("WorkloadNotAvailable");
        // unavailable but progressing: the rollout goes on
        assertThat(
                        Readiness.check(
                                m,
                                deployment(
                                        "u1",
                                        2,
                                        2,
                                        "[{\"type\":\"Available\",\"status\":\"False\"},{\"type\":\"Progressing\",\"status\":\"True\"}]"),
                                Mode.UPDATING))
                .isNull();
        // while installing, nothing is checked
        assertThat(Readiness.check(m, deployment("u1", 2, 2, DEADLINE), Mode.INITIALIZING))
                .isNull();
    }

    @Test
    void aDeploymentJustFixedIsNotFailedFromTheStatusOfItsPreviousGeneration() throws Exception {
        Manifest m = manifest("Deployment", "apps/v1");
        GenericKubernetesResource cachedBefore =
                deployment("u1", 1, 1, DEADLINE); // failing, as it was before the write
        GenericKubernetesResource written =
                deployment("u1", 2, 1, DEADLINE); // the write's response: new spec, old status

        assertThat(Readiness.check(m, cachedBefore, Mode.UPDATING).reason())
                .isEqualTo("WorkloadNotProgressing"); // a stale cache alone
        assertThat(Readiness.observed(cachedBefore, written)).isSameAs(written);
        assertThat(Readiness.check(m, Readiness.observed(cachedBefore, written), Mode.UPDATING))
                .isNull();
        assertThat(Readiness.observed(null, written)).isSameAs(written);
        assertThat(Readiness.observed(deployment("u0", 5, 5, ROLLING), written))
                .isSameAs(written); // another object by that name

        GenericKubernetesResource observed =
                deployment(
                        "u1", 2, 2, DEADLINE); // the cache caught up, still failing: judge from it
        assertThat(Readiness.observed(observed, written)).isSameAs(observed);
        assertThat(
                        Readiness.check(m, Readiness.observed(observed, written), Mode.UPDATING)
                                .effect())
                .isEqualTo(OperatorLevel.Effect.FAIL);
        assertThat(Readiness.observed(cachedBefore, null))
                .isSameAs(cachedBefore); // nothing written: the cache
    }

    @Test
    void aDaemonSetWithUnavailablePodsIsDoneAndOneBeingDeletedIsWaitedFor() throws Exception {
        Manifest m = manifest("DaemonSet", "apps/v1");
        String unavailable =
                "{\"desiredNumberScheduled\":5,\"updatedNumberScheduled\":3,\"numberUnavailable\":1,\"observedGeneration\":1}";
        assertThat(
                        Readiness.check(
                                m,
                                object("DaemonSet", "apps/v1", ",\"generation\":1", unavailable),
                                Mode.UPDATING))
                .isNull();
        Readiness.NotReady deleting =
                Readiness.check(
                        m,
                        object(
                                "DaemonSet",
                                "apps/v1",
                                ",\"generation\":1,\"deletionTimestamp\":\"2025-01-01T00:00:00Z\"",
                                unavailable),
                        Mode.UPDATING);
        assertThat(deleting.reason()).isEqualTo("ResourceBeingDeleted");
        assertThat(deleting.effect()).isEqualTo(OperatorLevel.Effect.NONE);
    }

    @Test
    void aRunningJobIsNotWaitedForAndAFailedOneFails() throws Exception {
        Manifest m = manifest("Job", "batch/v1");
        assertThat(
                        Readiness.check(
                                m, object("Job", "batch/v1", "", "{\"active\":1}"), Mode.UPDATING))
                .isNull();
        assertThat(
                        Readiness.check(
                                m,
                                object("Job", "batch/v1", "", "{\"succeeded\":1,\"failed\":2}"),
                                Mode.UPDATING))
                .isNull();
        assertThat(
                        Readiness.check(
                                        m,
                                        object(
                                                "Job",
                                                "batch/v1",
                                                "",
                                                "{\"active\":0,\"failed\":1}"),
                                        Mode.UPDATING)
                                .effect())
                .isEqualTo(OperatorLevel.Effect.NONE);
        Readiness.NotReady failed =
                Readiness.check(
                        m,
                        object(
                                "Job",
                                "batch/v1",
                                "",
                                "{\"failed\":7,\"conditions\":[{\"type\":\"Failed\",\"status\":\"True\",\"reason\":\"BackoffLimitExceeded\",\"message\":\"Job"
                                    + " has reached the specified backoff limit\"}]}"),
                        Mode.UPDATING);
        assertThat(failed.reason()).isEqualTo("JobFailed");
        assertThat(failed.effect()).isEqualTo(OperatorLevel.Effect.FAIL);
        assertThat(failed.message()).contains("BackoffLimitExceeded");
    }

    @Test
    void aCrdMustBeEstablishedExceptWhileInstalling() throws Exception {
        Manifest m =
                ManifestReader.read(
                                "0000_50_test_01_x.yaml",
                                "apiVersion: apiextensions.k8s.io/v1\n"
                                        + "kind: CustomResourceDefinition\n"
                                        + "metadata:\n"
                                        + "  name: widgets.example.com\n")
                        .get(0);
        GenericKubernetesResource pending =
                Serialization.unmarshal(
                        "{\"apiVersion\":\"apiextensions.k8s.io/v1\",\"kind\":\"CustomResourceDefinition\","
                            + "\"metadata\":{\"name\":\"widgets.example.com\"},\"status\":{\"conditions\":[{\"type\":\"NamesAccepted\",\"status\":\"True\"}]}}",
                        GenericKubernetesResource.class);
        assertThat(Readiness.check(m, pending, Mode.RECONCILING).reason())
                .isEqualTo("CustomResourceDefinitionNotEstablished");
        assertThat(Readiness.check(m, pending, Mode.INITIALIZING)).isNull();
        assertThat(Readiness.check(m, null, Mode.INITIALIZING).reason())
                .isEqualTo("ResourceMissing");
    }

    @Test
    void theControllersOwnDeploymentIsWaitedForUntilRolledOutEvenWhileInstalling()
            throws Exception {
        String release = "registry.example/upshift/release@sha256:" + "a".repeat(64);
        Manifest own =
                ManifestReader.read(
                                "0000_00_cluster-version-operator_03_deployment.yaml",
                                "apiVersion: apps/v1\n"
                                        + "kind: Deployment\n"
                                        + "metadata:\n"
                                        + "  name: cluster-version-operator\n"
                                        + "  namespace: openshift-cluster-version\n"
                                        + "spec:\n"
                                        + "  replicas: 1\n"
                                        + "  template:\n"
                                        + "    spec:\n"
                                        + "      containers:\n"
                                        + "      - name: controller\n"
                                        + "        image: "
                                        + release
                                        + "\n")
                        .get(0);
        GenericKubernetesResource replacing =
                object(
                        "Deployment",
                        "apps/v1",
                        ",\"generation\":2",
                        "{\"observedGeneration\":2,\"replicas\":1,\"updatedReplicas\":0}");
        Readiness.NotReady waiting = Readiness.check(own, replacing, Mode.INITIALIZING, release);
        assertThat(waiting).isNotNull();
        assertThat(waiting.reason()).isEqualTo("ControllerRollingOut");
        assertThat(waiting.effect()).isEqualTo(OperatorLevel.Effect.NONE);
        assertThat(Readiness.check(own, replacing, Mode.INITIALIZING, null))
                .as("without the release image, nothing is checked while installing")
                .isNull();

        GenericKubernetesResource rolledOut =
                object(
                        "Deployment",
                        "apps/v1",
                        ",\"generation\":2",
                        "{\"observedGeneration\":2,\"replicas\":1,\"updatedReplicas\":1,\"availableReplicas\":1}");
        assertThat(Readiness.check(own, rolledOut, Mode.UPDATING, release)).isNull();
        assertThat(
                        Readiness.check(
                                manifest("Deployment", "apps/v1"),
                                replacing,
                                Mode.INITIALIZING,
                                release))
                .as("another Deployment: not the controller's")
                .isNull();
    }
}
