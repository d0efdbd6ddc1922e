package io.upshift.status.model;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.NodeConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.fabric8.openshift.api.model.config.v1.UpdateHistoryBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.status.render.Details;
import io.upshift.status.render.StatusRenderer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** A small hand-built cluster updating from 1.0.0 to 1.1.0, for the assessment rule tests. */
final class TestCluster {
    static final Instant NOW = Instant.parse("2026-11-20T10:00:00Z");
    static final Instant STARTED = NOW.minus(Duration.ofMinutes(30));
    static final String OLD = "1.0.0";
    static final String NEW = "1.1.0";
    static final String MCO = "machineconfiguration.openshift.io/";

    final List<ClusterOperator> operators = new ArrayList<>();
    final List<Node> nodes = new ArrayList<>();
    final List<MachineConfigNode> machineConfigNodes = new ArrayList<>();
    final List<ClusterOperatorStatusCondition> cvConditions =
            new ArrayList<>(
                    List.of(
                            condition("Progressing", "True", "", "Working towards " + NEW, STARTED),
                            condition("Failing", "False", "", "", STARTED)));
    final List<UpdateHistory> history =
            new ArrayList<>(
                    List.of(
                            history("Partial", NEW, STARTED, null),
                            history(
                                    "Completed",
                                    OLD,
                                    STARTED.minus(Duration.ofDays(10)),
                                    STARTED.minus(Duration.ofDays(10))
                                            .plus(Duration.ofMinutes(40)))));
    boolean workerPaused;
    Integer workerMaxUnavailable;

    /** The worker pool's status conditions (none when empty). */
    final List<io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition>
            workerConditions = new ArrayList<>();

    /** The ClusterVersion's annotations (Upshift's run-level times). */
    final Map<String, String> cvAnnotations = new HashMap<>();

    /** The worker pool's annotations (Upshift's rollout controls). */
    final Map<String, String> workerAnnotations = new HashMap<>();

    /** The ClusterVersion's spec.desiredUpdate, or null. */
    io.fabric8.openshift.api.model.config.v1.Update desiredUpdate;

    List<Alert> alerts;
    String mcoImage = "";

    static ClusterOperatorStatusCondition condition(
            String type, String status, String reason, String message, Instant when) {
        return new ClusterOperatorStatusConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason)
                .withMessage(message)
                .withLastTransitionTime(when.toString())
                .build();
    }

    static UpdateHistory history(String state, String version, Instant started, Instant completed) {
        return new UpdateHistoryBuilder()
                .withState(state)
                .withVersion(version)
                .withImage("example.com/release:" + version)
                .withStartedTime(started.toString())
                .withCompletionTime(completed == null ? null : completed.toString())
                .build();
    }

    /** A platform operator at a version with Available/Degraded/Progressing as given. */
    TestCluster operator(
            String name, String version, ClusterOperatorStatusCondition... conditions) {
        List<ClusterOperatorStatusCondition> all =
                new ArrayList<>(
                        List.of(
                                condition("Available", "True", "AsExpected", "", STARTED),
                                condition("Degraded", "False", "AsExpected", "", STARTED),
                                condition("Progressing", "False", "AsExpected", "", STARTED)));
        for (ClusterOperatorStatusCondition c : conditions) {
            all.removeIf(existing -> existing.getType().equals(c.getType()));
            all.add(c);
        }
        operators.add(
                new ClusterOperatorBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withAnnotations(
                                Map.of(
                                        "include.release.openshift.io/self-managed-high-availability",
                                        "true"))
                        .endMetadata()
                        .withNewStatus()
                        .addNewVersion()
                        .withName("operator")
                        .withVersion(version)
                        .endVersion()
                        .withConditions(all)
                        .endStatus()
                        .build());
        return this;
    }

    /** A worker node: configs "old"/"new" name the rendered config of that release. */
    TestCluster node(
            String name, String current, String desired, String state, Map<String, String> extra) {
        Map<String, String> a =
                new HashMap<>(
                        Map.of(
                                MCO + "currentConfig",
                                "rendered-worker-" + current,
                                MCO + "desiredConfig",
                                "rendered-worker-" + desired,
                                MCO + "state",
                                state));
        a.putAll(extra);
        nodes.add(
                new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withLabels(Map.of("node-role.kubernetes.io/worker", ""))
                        .withAnnotations(a)
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .withNewStatus()
                        .addToConditions(
                                new NodeConditionBuilder()
                                        .withType("Ready")
                                        .withStatus("True")
                                        .withLastTransitionTime(
                                                STARTED.minus(Duration.ofDays(1)).toString())
                                        .build())
                        .endStatus()
                        .build());
        return this;
    }

    Node lastNode() {
        return nodes.get(nodes.size() - 1);
    }

    ClusterState state() {
        ClusterVersion cv =
                new ClusterVersionBuilder()
                        .withNewMetadata()
                        .withName("version")
                        .withAnnotations(cvAnnotations)
                        .endMetadata()
                        .withNewStatus()
                        .withNewDesired()
                        .withVersion(NEW)
                        .withImage("example.com/release:" + NEW)
                        .endDesired()
                        .withHistory(history)
                        .withConditions(cvConditions)
                        .endStatus()
                        .build();
        if (desiredUpdate != null) {
            cv.setSpec(new io.fabric8.openshift.api.model.config.v1.ClusterVersionSpec());
            cv.getSpec().setDesiredUpdate(desiredUpdate);
        }
        MachineConfigPool worker = pool("worker", workerPaused);
        worker.getMetadata().setAnnotations(new HashMap<>(workerAnnotations));
        if (workerMaxUnavailable != null) {
            worker.getSpec().setMaxUnavailable(new IntOrString(workerMaxUnavailable));
        }
        if (!workerConditions.isEmpty()) {
            worker.setStatus(
                    new io.fabric8.openshift.api.model.machineconfiguration.v1
                                    .MachineConfigPoolStatusBuilder()
                            .withConditions(workerConditions)
                            .build());
        }
        List<MachineConfigPool> pools = List.of(pool("master", false), worker);
        List<MachineConfig> configs = new ArrayList<>();
        for (String pool : List.of("master", "worker")) {
            configs.add(config("rendered-" + pool + "-old", OLD));
            configs.add(config("rendered-" + pool + "-new", NEW));
        }
        return new ClusterState(
                cv,
                operators,
                pools,
                configs,
                nodes,
                mcoImage,
                Optional.ofNullable(alerts),
                List.of(),
                machineConfigNodes);
    }

    UpdateStatusStatus assess() {
        return UpdateAssessment.assess(state(), NOW, NOW);
    }

    String render(Details details) {
        return StatusRenderer.render(assess(), NOW, details);
    }

    private static MachineConfigPool pool(String name, boolean paused) {
        return new MachineConfigPoolBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(
                        new LabelSelectorBuilder()
                                .withMatchLabels(Map.of("node-role.kubernetes.io/" + name, ""))
                                .build())
                .withNewConfiguration()
                .withName("rendered-" + name + "-new")
                .endConfiguration()
                .withPaused(paused)
                .endSpec()
                .build();
    }

    private static MachineConfig config(String name, String version) {
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(name)
                .withAnnotations(Map.of(MCO + "release-image-version", version))
                .endMetadata()
                .build();
    }
}
