package io.upshift.rehearsal.synthetic;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.LabelSelectorBuilder;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdateBuilder;
import io.fabric8.openshift.api.model.config.v1.FeatureGateBuilder;
import io.fabric8.openshift.api.model.config.v1.ReleaseBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistoryBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A made-up cluster at rest on {@link #FROM}, for the rehearsal's tests and examples: three
 * control-plane nodes and {@code workers} workers (maxUnavailable 2) in three zones, the operators
 * of {@link #LEVELS} (the machine-config operator last), {@link #TO} among its available updates
 * and {@link #MINOR} a conditional one, the run-level times and node update times of its last
 * update, an admin gate for the next minor, and a shop: a database of two pods under a budget that
 * allows no disruption ({@code shop/db}, minAvailable 2), a web tier of three under one that allows
 * one, and on every worker a node exporter and an application pod under no budget; FeatureGate
 * {@code cluster} of the Default feature set. The same parameters always give the same cluster.
 *
 * @param fromImage the release it runs
 * @param toImage the release {@link #TO}
 * @param at the moment it is seen at
 */
public record LevelCluster(int workers, String fromImage, String toImage, Instant at) {
    public static final String FROM = "4.18.1", TO = "4.18.2", MINOR = "4.19.0";

    /**
     * The run-levels of the releases it knows, their ClusterOperators, and what each took in the
     * last update.
     */
    public static final List<RunLevelTimes.Level> LEVELS =
            List.of(
                    level("00", List.of()),
                    level("10", List.of("etcd")),
                    level("20", List.of("kube-apiserver")),
                    level("25", List.of("kube-controller-manager", "kube-scheduler")),
                    level("30", List.of("openshift-apiserver")),
                    level("50", List.of("ingress", "dns", "network")),
                    level("70", List.of("console", "monitoring")),
                    level("80", List.of("machine-config")));

    /** Seconds each run-level took in the last update, in order. */
    static final int[] SECONDS = {12, 240, 420, 300, 180, 600, 360, 150};

    /** The budget that allows no disruption, and the workers its two pods run on. */
    public static final String STUCK_BUDGET = "shop/db";

    private static RunLevelTimes.Level level(String name, List<String> operators) {
        return new RunLevelTimes.Level(name, 1 + operators.size(), operators, null, null);
    }

    /** The workers the database runs on: the 4th and the 8th (or the last). */
    public List<String> databaseNodes() {
        return List.of(worker(Math.min(3, workers - 1)), worker(Math.min(7, workers - 1)));
    }

    static String worker(int i) {
        return String.format("worker-%02d", i);
    }

    public List<HasMetadata> objects() {
        Instant lastUpdate = at.minus(Duration.ofDays(12));
        List<HasMetadata> out = new ArrayList<>();
        out.add(clusterVersion(lastUpdate));
        for (RunLevelTimes.Level l : LEVELS)
            for (String op : l.operators()) out.add(operator(op, lastUpdate));
        out.add(pool("master", "master", 1));
        out.add(pool("worker", "worker", 2));
        out.add(config("master"));
        out.add(config("worker"));
        Instant nodeStart = lastUpdate.plus(Duration.ofMinutes(38));
        for (int i = 0; i < 3; i++)
            out.add(node("master-" + i, "master", i, nodeStart.plus(Duration.ofMinutes(7L * i))));
        for (int i = 0; i < workers; i++)
            out.add(node(worker(i), "worker", i, nodeStart.plus(Duration.ofMinutes(4L * i))));
        out.add(
                new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("admin-gates")
                        .withNamespace("openshift-config-managed")
                        .endMetadata()
                        .withData(
                                Map.of(
                                        "ack-4.18-kube-1.32-api-removals-in-4.19",
                                        "Kubernetes 1.32 and therefore OpenShift 4.19 remove"
                                            + " several APIs which require admin consideration."))
                        .build());
        out.add(
                new ConfigMapBuilder()
                        .withNewMetadata()
                        .withName("admin-acks")
                        .withNamespace("openshift-config")
                        .endMetadata()
                        .withData(Map.of())
                        .build());
        out.add(
                new FeatureGateBuilder()
                        .withNewMetadata()
                        .withName("cluster")
                        .endMetadata()
                        .build());
        out.add(budget("db", "minAvailable", 2, "db"));
        out.add(budget("web", "maxUnavailable", 1, "web"));
        List<String> db = databaseNodes();
        out.add(pod("db-0", "db", "StatefulSet", db.get(0)));
        out.add(pod("db-1", "db", "StatefulSet", db.get(1)));
        for (int i = 0; i < 3; i++)
            out.add(pod("web-" + i, "web", "ReplicaSet", worker((2 * i + 1) % workers)));
        for (int i = 0; i < workers; i++) {
            out.add(pod("node-exporter-" + i, "node-exporter", "DaemonSet", worker(i)));
            out.add(pod("worker-app-" + i, "worker-app", "ReplicaSet", worker((i + 1) % workers)));
        }
        return out;
    }

    private HasMetadata clusterVersion(Instant lastUpdate) {
        Map<String, Double> seconds = new LinkedHashMap<>();
        List<RunLevelTimes.Level> timed = new ArrayList<>();
        Instant t = lastUpdate;
        for (int i = 0; i < LEVELS.size(); i++) {
            RunLevelTimes.Level l = LEVELS.get(i);
            Instant end = t.plusSeconds(SECONDS[i]);
            timed.add(
                    new RunLevelTimes.Level(
                            l.runLevel(),
                            l.tasks(),
                            l.operators(),
                            RunLevelTimes.format(t),
                            RunLevelTimes.format(end)));
            seconds.put(l.runLevel(), (double) SECONDS[i]);
            t = end;
        }
        Instant completed = t;
        String times =
                new RunLevelTimes(
                                fromImage,
                                FROM,
                                timed,
                                new RunLevelTimes.Previous("4.18.0", seconds))
                        .toAnnotation();
        String minorImage = "quay.io/openshift-release-dev/ocp-release@sha256:" + "9".repeat(64);
        return new ClusterVersionBuilder()
                .withNewMetadata()
                .withName("version")
                .withAnnotations(Map.of(RunLevelTimes.ANNOTATION, times))
                .endMetadata()
                .withNewSpec()
                .withClusterID("1b5e7c43-9a1d-4c7e-8f2a-0d6b3e9c2a71")
                .withChannel("stable-4.18")
                .endSpec()
                .withNewStatus()
                .withNewDesired()
                .withVersion(FROM)
                .withImage(fromImage)
                .endDesired()
                .withObservedGeneration(3L)
                .withVersionHash("rehearsal-example")
                .withHistory(
                        new UpdateHistoryBuilder()
                                .withState("Completed")
                                .withVersion(FROM)
                                .withImage(fromImage)
                                .withVerified(true)
                                .withStartedTime(lastUpdate.toString())
                                .withCompletionTime(completed.toString())
                                .build(),
                        new UpdateHistoryBuilder()
                                .withState("Completed")
                                .withVersion("4.18.0")
                                .withImage(
                                        "quay.io/openshift-release-dev/ocp-release@sha256:"
                                                + "0".repeat(64))
                                .withVerified(false)
                                .withStartedTime(lastUpdate.minus(Duration.ofDays(40)).toString())
                                .withCompletionTime(
                                        lastUpdate
                                                .minus(Duration.ofDays(40))
                                                .plus(Duration.ofMinutes(41))
                                                .toString())
                                .build())
                .withConditions(
                        condition("Available", "True", "", "Done applying " + FROM, completed),
                        condition("Failing", "False", "", "", completed),
                        condition(
                                "Progressing",
                                "False",
                                "",
                                "Cluster version is " + FROM,
                                completed),
                        condition("RetrievedUpdates", "True", "", "", at.minusSeconds(90)))
                .withAvailableUpdates(
                        new ReleaseBuilder().withVersion(TO).withImage(toImage).build())
                .withConditionalUpdates(
                        new ConditionalUpdateBuilder()
                                .withRelease(
                                        new ReleaseBuilder()
                                                .withVersion(MINOR)
                                                .withImage(minorImage)
                                                .build())
                                .addNewRisk()
                                .withName("IngressDropsLongConnections")
                                .withUrl("https://issues.example/OCPBUGS-0000")
                                .withMessage(
                                        "Clusters with long-lived ingress connections may see them"
                                                + " dropped while the router rolls out.")
                                .addNewMatchingRule()
                                .withType("Always")
                                .endMatchingRule()
                                .endRisk()
                                .withConditions(
                                        new ConditionBuilder()
                                                .withType("Recommended")
                                                .withStatus("False")
                                                .withReason("IngressDropsLongConnections")
                                                .withMessage(
                                                        "Clusters with long-lived ingress"
                                                            + " connections may see them dropped"
                                                            + " while the router rolls out."
                                                            + " https://issues.example/OCPBUGS-0000")
                                                .withLastTransitionTime(
                                                        at.minusSeconds(90).toString())
                                                .build())
                                .build())
                .endStatus()
                .build();
    }

    private HasMetadata operator(String name, Instant since) {
        return new ClusterOperatorBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewSpec() // required by the CRD: a real API server refuses one without
                .endSpec()
                .withNewStatus()
                .addNewVersion()
                .withName("operator")
                .withVersion(FROM)
                .endVersion()
                .withConditions(
                        condition("Available", "True", "AsExpected", "", since),
                        condition("Progressing", "False", "AsExpected", "", since),
                        condition("Degraded", "False", "AsExpected", "", since),
                        condition("Upgradeable", "True", "AsExpected", "", since))
                .endStatus()
                .build();
    }

    private static ClusterOperatorStatusCondition condition(
            String type, String status, String reason, String message, Instant when) {
        return new ClusterOperatorStatusConditionBuilder()
                .withType(type)
                .withStatus(status)
                .withReason(reason.isEmpty() ? null : reason)
                .withMessage(message.isEmpty() ? null : message)
                .withLastTransitionTime(when.toString())
                .build();
    }

    private static String rendered(String pool) {
        return "rendered-" + pool + "-" + FROM.replace('.', '-');
    }

    private HasMetadata pool(String name, String role, int maxUnavailable) {
        return new MachineConfigPoolBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(
                        name.equals("master")
                                ? Map.of(
                                        "operator.machineconfiguration.openshift.io/required-for-upgrade",
                                        "")
                                : Map.of())
                .endMetadata()
                .withNewSpec()
                .withNodeSelector(
                        new LabelSelectorBuilder()
                                .withMatchLabels(Map.of("node-role.kubernetes.io/" + role, ""))
                                .build())
                .withMaxUnavailable(new IntOrString(maxUnavailable))
                .withNewConfiguration()
                .withName(rendered(name))
                .endConfiguration()
                .withPaused(false)
                .endSpec()
                .withNewStatus()
                .withNewConfiguration()
                .withName(rendered(name))
                .endConfiguration()
                .withMachineCount(name.equals("master") ? 3 : workers)
                .withUpdatedMachineCount(name.equals("master") ? 3 : workers)
                .withReadyMachineCount(name.equals("master") ? 3 : workers)
                .withUnavailableMachineCount(0)
                .withDegradedMachineCount(0)
                .addNewCondition()
                .withType("Updated")
                .withStatus("True")
                .withLastTransitionTime(at.minus(Duration.ofDays(12)).toString())
                .endCondition()
                .addNewCondition()
                .withType("Degraded")
                .withStatus("False")
                .withLastTransitionTime(at.minus(Duration.ofDays(12)).toString())
                .endCondition()
                .endStatus()
                .build();
    }

    private HasMetadata config(String pool) {
        return new MachineConfigBuilder()
                .withNewMetadata()
                .withName(rendered(pool))
                .withAnnotations(Map.of(NodeAnnotations.RELEASE_IMAGE_VERSION, FROM))
                .endMetadata()
                .withNewSpec()
                .withOsImageURL("quay.io/openshift-release-dev/rhcos@sha256:" + "1".repeat(64))
                .endSpec()
                .build();
    }

    private HasMetadata node(String name, String role, int index, Instant updateStarted) {
        Duration took = Duration.ofSeconds(330 + 37L * (index % 5));
        Map<String, String> annotations = new LinkedHashMap<>();
        annotations.put(NodeAnnotations.CURRENT_CONFIG, rendered(role));
        annotations.put(NodeAnnotations.DESIRED_CONFIG, rendered(role));
        annotations.put(NodeAnnotations.STATE, NodeAnnotations.DONE);
        annotations.put(NodeAnnotations.UPDATE_STARTED_AT, RunLevelTimes.format(updateStarted));
        annotations.put(
                NodeAnnotations.UPDATE_DONE_AT, RunLevelTimes.format(updateStarted.plus(took)));
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .withLabels(
                        Map.of(
                                "node-role.kubernetes.io/" + role,
                                "",
                                PoolMembers.ZONE_LABEL,
                                "zone-" + (char) ('a' + index % 3)))
                .withAnnotations(annotations)
                .withCreationTimestamp(
                        at.minus(Duration.ofDays(90)).plusSeconds(60L * index).toString())
                .endMetadata()
                .withNewSpec()
                .endSpec()
                .withNewStatus()
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .withLastTransitionTime(at.minus(Duration.ofDays(12)).toString())
                .endCondition()
                .endStatus()
                .build();
    }

    private static HasMetadata budget(String name, String rule, int n, String app) {
        PodDisruptionBudgetBuilder b =
                new PodDisruptionBudgetBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace("shop")
                        .endMetadata();
        var spec =
                b.withNewSpec()
                        .withSelector(
                                new LabelSelectorBuilder()
                                        .withMatchLabels(Map.of("app", app))
                                        .build());
        spec =
                rule.equals("minAvailable")
                        ? spec.withMinAvailable(new IntOrString(n))
                        : spec.withMaxUnavailable(new IntOrString(n));
        return spec.endSpec().build();
    }

    private static Pod pod(String name, String app, String ownerKind, String node) {
        boolean daemon = ownerKind.equals("DaemonSet");
        return new PodBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(daemon ? "monitoring" : "shop")
                .withLabels(Map.of("app", app))
                .addNewOwnerReference()
                .withApiVersion("apps/v1")
                .withKind(ownerKind)
                .withName(app)
                .withUid(
                        "00000000-0000-4000-8000-"
                                + String.format("%012d", Math.abs((long) app.hashCode())))
                .withController(true)
                .endOwnerReference()
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .addNewContainer()
                .withName(app)
                .withImage("quay.io/example/" + app + ":1")
                .endContainer()
                .endSpec()
                .withNewStatus()
                .withPhase("Running")
                .addNewCondition()
                .withType("Ready")
                .withStatus("True")
                .endCondition()
                .endStatus()
                .build();
    }
}
