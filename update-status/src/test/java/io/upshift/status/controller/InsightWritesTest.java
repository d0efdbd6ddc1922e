package io.upshift.status.controller;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.update.UpdateStatus;
import io.upshift.api.update.insight.ClusterVersionProgressInsight;
import io.upshift.api.update.insight.HealthInsightObject;
import io.upshift.api.update.insight.InsightKinds;
import io.upshift.api.update.insight.MachineConfigPoolProgressInsight;
import io.upshift.api.update.insight.NodeProgressInsight;
import io.upshift.status.synthetic.SyntheticCluster;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.RequestLog;
import io.upshift.testkit.ServiceAccount;
import io.upshift.testkit.WithStatus;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * What the UpdateStatus controller writes, counted in the embedded API server's request log (CRDs
 * installed, so the UpdateStatus keeps its status apart as kube-apiserver does): one node's change
 * writes that node's insight and only what the change alters besides.
 */
@Tag("e2e")
class InsightWritesTest {
    private static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");
    private static final String AGENT = "upshift-operator";
    private static final String MCO = "machineconfiguration.openshift.io/";
    private static final String INSIGHTS = "/apis/update.openshift.io/v1alpha1/";

    private final SyntheticCluster cluster = new SyntheticCluster(60, 2, 8, 1.0, NOW);
    private ApiServer server;
    private KubernetesClient client;
    private UpdateStatusController controller;

    @BeforeEach
    void start() {
        server = ApiServers.start(UpdateStatusControllerTest.CRDS).installRbac();
        client = server.client();
        for (HasMetadata o : cluster.objects()) WithStatus.create(client, o);
        controller =
                new UpdateStatusController(
                        server.client(AGENT, ServiceAccount.UPSHIFT),
                        Clock.fixed(NOW, ZoneOffset.UTC),
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(10),
                        Optional::empty);
        controller.start();
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            UpdateStatus us =
                                    client.resources(UpdateStatus.class)
                                            .withName(UpdateStatus.NAME)
                                            .get();
                            return us != null && us.getStatus() != null;
                        });
        controller.evaluate(); // after whatever evaluation is under way: everything is written
    }

    @AfterEach
    void stop() {
        if (controller != null) controller.close();
        if (server != null) server.close();
    }

    @Test
    void theFirstEvaluationWritesEachObjectOnceAndTheSummaryOnce() {
        int objects = 0;
        for (Class<? extends HasMetadata> kind : InsightKinds.ALL) {
            objects += client.resources(kind).list().getItems().size();
        }
        // the UpdateStatus is created, then each insight object, then the summary status
        assertThat(writes()).hasSize(objects + 2);
        assertThat(writes()).filteredOn(r -> r.method().equals("POST")).hasSize(objects + 1);
    }

    @Test
    void aNodeChangingPhaseWritesOnlyItsInsight() {
        // Updating to Rebooting: the pool's counts stay (both outdated, progressing, not draining)
        Node node =
                first(
                        n ->
                                "Working".equals(annotation(n, "state"))
                                        && !annotation(n, "desiredDrain").startsWith("drain-"));
        String name = node.getMetadata().getName();
        int mark = server.requests().size();
        node.getMetadata().getAnnotations().put(MCO + "state", "Rebooting");
        client.resource(node).update();

        awaitUpdatingReason(name, "Rebooting");
        controller.evaluate();
        assertThat(writesSince(mark))
                .map(RequestLog.Request::toString)
                .containsExactly(
                        "PUT " + INSIGHTS + "nodeprogressinsights/" + name + " (" + AGENT + ")");
    }

    @Test
    void aNodeStartingToDrainWritesItsInsightAndItsPoolsCounts() {
        Node node =
                first(
                        n ->
                                "Done".equals(annotation(n, "state"))
                                        && annotation(n, "currentConfig")
                                                .equals(annotation(n, "desiredConfig"))
                                        && !annotation(n, "currentConfig").equals(target(n)));
        String name = node.getMetadata().getName();
        String pool = poolOf(node);
        int mark = server.requests().size();
        Map<String, String> a = node.getMetadata().getAnnotations();
        a.put(MCO + "desiredConfig", target(node));
        a.put(MCO + "state", "Working");
        a.put(MCO + "desiredDrain", "drain-" + target(node));
        node.getSpec().setUnschedulable(true);
        client.resource(node).update();

        awaitUpdatingReason(name, "Draining");
        controller.evaluate();
        assertThat(writesSince(mark))
                .map(RequestLog.Request::toString)
                .containsExactlyInAnyOrder(
                        "PUT " + INSIGHTS + "nodeprogressinsights/" + name + " (" + AGENT + ")",
                        "PUT "
                                + INSIGHTS
                                + "machineconfigpoolprogressinsights/"
                                + pool
                                + " ("
                                + AGENT
                                + ")",
                        "PUT "
                                + INSIGHTS
                                + "updatestatuses/"
                                + UpdateStatus.NAME
                                + "/status ("
                                + AGENT
                                + ")");
    }

    @Test
    void aDeletedNodesInsightIsDeleted() {
        Node node = first(n -> true);
        String name = node.getMetadata().getName();
        int mark = server.requests().size();
        client.resource(node).delete();

        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                client.resources(NodeProgressInsight.class).withName(name).get()
                                        == null);
        controller.evaluate();
        assertThat(writesSince(mark))
                .map(RequestLog.Request::toString)
                .contains(
                        "DELETE " + INSIGHTS + "nodeprogressinsights/" + name + " (" + AGENT + ")");
    }

    @Test
    void insightsAreOwnedByTheirSubjects() {
        Node node = first(n -> true);
        NodeProgressInsight insight =
                client.resources(NodeProgressInsight.class)
                        .withName(node.getMetadata().getName())
                        .get();
        assertThat(insight.getMetadata().getOwnerReferences())
                .singleElement()
                .satisfies(
                        o -> {
                            assertThat(o.getKind()).isEqualTo("Node");
                            assertThat(o.getUid())
                                    .isEqualTo(
                                            client.nodes()
                                                    .withName(node.getMetadata().getName())
                                                    .get()
                                                    .getMetadata()
                                                    .getUid());
                        });
        assertThat(
                        client.resources(MachineConfigPoolProgressInsight.class)
                                .withName("worker")
                                .get()
                                .getMetadata()
                                .getOwnerReferences())
                .singleElement()
                .satisfies(
                        o ->
                                assertThat(o.getUid())
                                        .isEqualTo(
                                                client.resources(MachineConfigPool.class)
                                                        .withName("worker")
                                                        .get()
                                                        .getMetadata()
                                                        .getUid()));
        assertThat(
                        client.resources(ClusterVersionProgressInsight.class)
                                .withName("version")
                                .get()
                                .getMetadata()
                                .getOwnerReferences())
                .singleElement()
                .satisfies(
                        o ->
                                assertThat(o.getUid())
                                        .isEqualTo(
                                                client.resources(ClusterVersion.class)
                                                        .withName("version")
                                                        .get()
                                                        .getMetadata()
                                                        .getUid()));
    }

    @Test
    void aDeletedUpdateStatusIsMadeAnewAndOwnsTheHealthInsights() {
        Node node = first(n -> "Done".equals(annotation(n, "state")));
        node.getMetadata().getAnnotations().put(MCO + "state", "Degraded");
        node.getMetadata().getAnnotations().put(MCO + "reason", "disk full");
        client.resource(node).update();
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () ->
                                !client.resources(HealthInsightObject.class)
                                        .list()
                                        .getItems()
                                        .isEmpty());
        String before =
                client.resources(UpdateStatus.class)
                        .withName(UpdateStatus.NAME)
                        .get()
                        .getMetadata()
                        .getUid();

        client.resources(UpdateStatus.class).withName(UpdateStatus.NAME).delete();

        // the mock API server collects no garbage: the health insights stay, and are given the new
        // owner
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            UpdateStatus us =
                                    client.resources(UpdateStatus.class)
                                            .withName(UpdateStatus.NAME)
                                            .get();
                            return us != null
                                    && us.getStatus() != null
                                    && !us.getMetadata().getUid().equals(before)
                                    && client
                                            .resources(HealthInsightObject.class)
                                            .list()
                                            .getItems()
                                            .stream()
                                            .allMatch(
                                                    h ->
                                                            h.getMetadata()
                                                                    .getOwnerReferences()
                                                                    .get(0)
                                                                    .getUid()
                                                                    .equals(
                                                                            us.getMetadata()
                                                                                    .getUid()));
                        });
    }

    private List<RequestLog.Request> writes() {
        return writesSince(0);
    }

    private List<RequestLog.Request> writesSince(int mark) {
        List<RequestLog.Request> all = server.requests().matching(r -> true);
        return all.subList(mark, all.size()).stream()
                .filter(r -> r.isWrite() && r.userAgent().equals(AGENT))
                .toList();
    }

    private void awaitUpdatingReason(String node, String reason) {
        Awaitility.await()
                .atMost(Duration.ofSeconds(60))
                .until(
                        () -> {
                            NodeProgressInsight i =
                                    client.resources(NodeProgressInsight.class)
                                            .withName(node)
                                            .get();
                            return i.getStatus().conditions().stream()
                                    .anyMatch(
                                            c ->
                                                    c.getType().equals("Updating")
                                                            && c.getReason().equals(reason));
                        });
    }

    private Node first(Predicate<Node> which) {
        return client.nodes().list().getItems().stream()
                .filter(n -> n.getMetadata().getName().startsWith("worker-"))
                .filter(which)
                .findFirst()
                .orElseThrow();
    }

    private static String annotation(Node n, String key) {
        return n.getMetadata().getAnnotations().getOrDefault(MCO + key, "");
    }

    private String poolOf(Node n) {
        return n.getMetadata().getLabels().containsKey("node-role.kubernetes.io/worker")
                ? "worker"
                : "worker-1";
    }

    private String target(Node n) {
        return client.resources(MachineConfigPool.class)
                .withName(poolOf(n))
                .get()
                .getSpec()
                .getConfiguration()
                .getName();
    }
}
