package io.upshift.status.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.api.schema.CrdSchema;
import io.upshift.api.update.ClusterVersionInsight;
import io.upshift.api.update.Insight;
import io.upshift.api.update.UpdateStatus;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.api.update.insight.ClusterOperatorProgressInsight;
import io.upshift.api.update.insight.ClusterVersionProgressInsight;
import io.upshift.api.update.insight.HealthInsightObject;
import io.upshift.api.update.insight.MachineConfigPoolProgressInsight;
import io.upshift.api.update.insight.NodeProgressInsight;
import io.upshift.status.model.UpdateAssessment;
import io.upshift.status.render.Details;
import io.upshift.status.render.StatusRenderer;
import io.upshift.status.synthetic.SyntheticCluster;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.ServiceAccount;
import io.upshift.testkit.WithStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The UpdateStatus controller on an API server ({@link ApiServers}: the real one when there), as
 * deploy/ runs it: its ServiceAccount, its CRDs and those of the kinds it reads.
 */
@Tag("e2e")
class UpdateStatusControllerTest {
    /** The UpdateStatus and insight CRDs, and those of the kinds the controller reads. */
    static final String[] CRDS = {
        "updatestatuses.update.openshift.io",
        "clusterversionprogressinsights.update.openshift.io",
        "clusteroperatorprogressinsights.update.openshift.io",
        "machineconfigpoolprogressinsights.update.openshift.io",
        "nodeprogressinsights.update.openshift.io",
        "healthinsights.update.openshift.io",
        "clusterversions.config.openshift.io",
        "clusteroperators.config.openshift.io",
        "machineconfigpools.machineconfiguration.openshift.io",
        "machineconfigs.machineconfiguration.openshift.io",
        "machineconfignodes.machineconfiguration.openshift.io"
    };

    private static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");
    private static final CrdSchema SCHEMA =
            CrdSchema.bundled("updatestatuses.update.openshift.io", "v1alpha1");

    ApiServer server;
    KubernetesClient client;
    KubernetesClient controllerClient;
    private UpdateStatusController controller;
    private final SyntheticCluster cluster = new SyntheticCluster(12, 2, 8, 1.0, NOW);

    @BeforeEach
    void createCluster() {
        server = ApiServers.start(CRDS).installRbac();
        client = server.client();
        for (HasMetadata o : cluster.objects()) WithStatus.create(client, o);
        controllerClient = server.client("upshift-operator", ServiceAccount.UPSHIFT);
        controller =
                new UpdateStatusController(
                        controllerClient,
                        Clock.fixed(NOW, ZoneOffset.UTC),
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(10),
                        Optional::empty);
    }

    @AfterEach
    void stop() {
        if (controller != null) controller.close();
        if (controllerClient != null) controllerClient.close();
        if (server != null) server.close();
    }

    @Test
    void writesInsightsThatRenderLikeALocalAssessment() {
        controller.start();
        UpdateStatus written = await(() -> read() != null && read().getStatus() != null);

        String local =
                StatusRenderer.render(
                        UpdateAssessment.assess(cluster.state(), NOW, NOW), NOW, Details.all);
        assertThat(StatusRenderer.render(UpdateStatusReader.read(client), NOW, Details.all))
                .isEqualTo(local);
        assertThat(local).contains("Worker Pool Nodes: worker");
        assertThat(SCHEMA.violations(written)).isEmpty();
        // the summary keeps the ClusterVersion and the pools, the objects every insight
        assertThat(written.getStatus().insights()).hasSize(1 + 3);
        assertThat(client.resources(NodeProgressInsight.class).list().getItems()).hasSize(12 + 3);
        assertValidObjects(
                ClusterVersionProgressInsight.class,
                ClusterOperatorProgressInsight.class,
                MachineConfigPoolProgressInsight.class,
                NodeProgressInsight.class);
    }

    @Test
    void writesNothingWhenNothingChanged() {
        controller.start();
        awaitFirstEvaluation();
        long writes = controller.writes();

        controller.evaluate();
        controller.evaluate();

        assertThat(controller.writes()).isEqualTo(writes);
    }

    @Test
    void aChangedNodeLeadsToAWriteAndKeepsInsightIdentities() {
        controller.start();
        awaitFirstEvaluation();
        UpdateStatusStatus before = UpdateStatusReader.read(client);
        Node node = client.nodes().withName("worker-worker-00000").get();
        node.getMetadata()
                .getAnnotations()
                .put("machineconfiguration.openshift.io/state", "Degraded");
        node.getMetadata()
                .getAnnotations()
                .put("machineconfiguration.openshift.io/reason", "disk full");
        client.resource(node).update();

        UpdateStatus after =
                await(
                        () ->
                                StatusRenderer.render(
                                                UpdateStatusReader.read(client), NOW, Details.none)
                                        .contains("Node worker-worker-00000 is degraded"));
        assertThat(uidsNow()).containsAll(uids(before));
        assertThat(SCHEMA.violations(after)).isEmpty();
    }

    @Test
    void aBurstOfChangesIsWrittenAtMostABurstPerSecond() {
        controller.start();
        awaitFirstEvaluation();
        long evaluations = controller.evaluations();
        long start = System.nanoTime();
        for (int i = 0; i < 40; i++) {
            Node node = client.nodes().withName("worker-worker-00000").get();
            node.getMetadata()
                    .getAnnotations()
                    .put("machineconfiguration.openshift.io/reason", "attempt " + i);
            node.getMetadata()
                    .getAnnotations()
                    .put("machineconfiguration.openshift.io/state", "Degraded");
            client.resource(node).update();
        }
        await(() -> UpdateStatusReader.read(client).toString().contains("attempt 39"));
        double seconds = (System.nanoTime() - start) / 1e9;
        // At most a burst of evaluations (and so writes of each insight) per elapsed second, plus
        // the one that may start a second: a bound from above on a rate, which a busy machine only
        // makes easier to keep (it lengthens the seconds and makes the evaluations no more).
        assertThat(controller.evaluations() - evaluations)
                .isLessThanOrEqualTo(
                        UpdateStatusController.BURST * (1 + (long) Math.ceil(seconds)));
    }

    @Test
    void aClusterVersionAboutToBeWrittenIsMirroredFirstAndItsWriteThenCostsNothing() {
        ClusterVersion partial = startPartial();

        controller.mirrorAhead(completed(partial, true));

        // written before the ClusterVersion it copies
        assertThat(versionInsight().completedAt()).isNotNull();
        assertThat(readVersion().getStatus().getHistory().get(0).getState()).isEqualTo("Partial");
        long writes = controller.writes();
        // an evaluation before the write (any change, the periodic one) keeps the copy
        controller.evaluate();
        assertThat(controller.writes()).isEqualTo(writes);

        writeVersion(completed(partial, true));
        Awaitility.await()
                .during(Duration.ofSeconds(2))
                .atMost(Duration.ofSeconds(10))
                .until(() -> controller.writes() == writes);
        controller.evaluate();
        assertThat(controller.writes()).isEqualTo(writes);
        assertThat(versionInsight().completedAt()).isNotNull();
    }

    @Test
    void aMirroredClusterVersionNotWrittenAfterAllIsWithdrawn() {
        Runnable withdraw = controller.mirrorAhead(completed(startPartial(), true));
        assertThat(versionInsight().completedAt()).isNotNull();

        withdraw.run();

        await(() -> versionInsight().completedAt() == null);
    }

    /**
     * Starts the controller on the cluster with its update not yet Completed, once the insights say
     * so; returns that ClusterVersion.
     */
    private ClusterVersion startPartial() {
        controller.start();
        ClusterVersion partial = writeVersion(completed(readVersion(), false));
        await(() -> versionInsight().completedAt() == null);
        return partial;
    }

    @Test
    void keepsAcquiredTimesAcrossARestart() {
        controller.start();
        awaitFirstEvaluation();
        controller.close();
        UpdateStatusStatus first =
                UpdateStatusReader.read(
                        client); // what the first controller left, whichever of its writes came
        // last
        controller =
                new UpdateStatusController(
                        controllerClient,
                        Clock.fixed(NOW.plusSeconds(90), ZoneOffset.UTC),
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(10),
                        Optional::empty);
        controller.start();
        await(() -> controller.evaluations() >= 1);
        controller.evaluate();

        assertThat(controller.writes()).isZero();
        assertThat(UpdateStatusReader.read(client)).isEqualTo(first);
    }

    @Test
    void aDrainRefusedForLongerThanTheThresholdBecomesAHealthInsight() {
        Node node = client.nodes().withName("worker-worker-00000").get();
        node.getMetadata()
                .getAnnotations()
                .put("machineconfiguration.openshift.io/state", "Working");
        node.getMetadata()
                .getAnnotations()
                .put("machineconfiguration.openshift.io/desiredDrain", "drain-rendered-worker-2");
        node.getMetadata()
                .getAnnotations()
                .put(
                        "machineconfiguration.openshift.io/lastAppliedDrain",
                        "uncordon-rendered-worker-1");
        client.resource(node).update();
        client.v1()
                .events()
                .inNamespace("default")
                .resource(
                        new EventBuilder()
                                .withNewMetadata()
                                .withName("worker-worker-00000.drain")
                                .withNamespace("default")
                                .endMetadata()
                                .withReason("DrainBlocked")
                                .withType("Warning")
                                .withNewInvolvedObject()
                                .withKind("Node")
                                .withName("worker-worker-00000")
                                .endInvolvedObject()
                                .withFirstTimestamp(NOW.minus(Duration.ofMinutes(6)).toString())
                                .withLastTimestamp(NOW.toString())
                                .withMessage(
                                        "PodDisruptionBudget shop/web does not allow evicting pod"
                                                + " shop/web-1")
                                .build())
                .create();

        controller.start();
        UpdateStatus written = await(() -> read() != null && read().getStatus() != null);
        assertThat(StatusRenderer.render(UpdateStatusReader.read(client), NOW, Details.none))
                .contains(
                        "Node worker-worker-00000 cannot drain: PodDisruptionBudget shop/web does"
                                + " not allow evicting pod shop/web-1");
        assertValidObjects(HealthInsightObject.class);
        assertThat(SCHEMA.violations(written)).isEmpty();
    }

    private ClusterVersion readVersion() {
        return client.resources(ClusterVersion.class).withName("version").get();
    }

    /** Writes {@code cv}'s status, conditional on its resourceVersion. */
    private ClusterVersion writeVersion(ClusterVersion cv) {
        return client.resource(cv).updateStatus();
    }

    /** {@code cv} with its newest history entry Completed or not, and Progressing to match. */
    private static ClusterVersion completed(ClusterVersion cv, boolean done) {
        ClusterVersion c = new ClusterVersionBuilder(cv).build();
        UpdateHistory newest = c.getStatus().getHistory().get(0);
        newest.setState(done ? "Completed" : "Partial");
        // a Partial entry keeps its completionTime: the CRD requires the field (null: none), which
        // this client leaves out when null
        if (done) newest.setCompletionTime(NOW.minusSeconds(60).toString());
        c.getStatus()
                .getConditions()
                .forEach(
                        k -> {
                            if ("Progressing".equals(k.getType()))
                                k.setStatus(done ? "False" : "True");
                        });
        return c;
    }

    private ClusterVersionInsight versionInsight() {
        return client.resources(ClusterVersionProgressInsight.class).list().getItems().stream()
                .findFirst()
                .orElseThrow()
                .getStatus();
    }

    /** Objects of each kind are there, and each validates against its kind's CRD. */
    @SafeVarargs
    private void assertValidObjects(Class<? extends HasMetadata>... kinds) {
        for (Class<? extends HasMetadata> kind : kinds) {
            CrdSchema crd = CrdSchema.bundled(HasMetadata.getFullResourceName(kind), "v1alpha1");
            List<? extends HasMetadata> objects = client.resources(kind).list().getItems();
            assertThat(objects).as(kind.getSimpleName()).isNotEmpty();
            objects.forEach(o -> assertThat(crd.violations(o)).isEmpty());
        }
    }

    private UpdateStatus read() {
        return client.resources(UpdateStatus.class).withName(UpdateStatus.NAME).get();
    }

    /** The insights' uids as the cluster holds them now (they live apart from the UpdateStatus). */
    private List<String> uidsNow() {
        return uids(UpdateStatusReader.read(client));
    }

    private static List<String> uids(UpdateStatusStatus status) {
        return status.insights().stream().map(Insight::uid).toList();
    }

    /** The summary is written last: once it is there, the first evaluation's writes are done. */
    private void awaitFirstEvaluation() {
        await(() -> read() != null && read().getStatus() != null);
    }

    private UpdateStatus await(BooleanSupplier condition) {
        Awaitility.await().atMost(Duration.ofSeconds(60)).until(condition::getAsBoolean);
        return read();
    }
}
