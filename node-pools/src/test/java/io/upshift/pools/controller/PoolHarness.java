package io.upshift.pools.controller;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolCondition;
import io.upshift.api.json.Mappers;
import io.upshift.pools.agent.AgentOptions;
import io.upshift.pools.agent.HostFiles;
import io.upshift.pools.agent.NodeAgent;
import io.upshift.pools.agent.SimulatedHost;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.OneFileConfig;
import io.upshift.pools.model.RequiredPools;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.Kubelets;
import io.upshift.testkit.ServiceAccount;
import io.upshift.testkit.WithStatus;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.awaitility.Awaitility;

/**
 * An API server with evictions, pools and nodes, a pool controller and one agent per node on
 * simulated hosts; the controller and the agents act as their deploy/ ServiceAccounts, with
 * deploy/rbac.yaml's rules. Pods go in namespace {@code shop}.
 */
public final class PoolHarness implements AutoCloseable {
    public static final String ROLE = "node-role.kubernetes.io/";
    public static final AgentOptions FAST =
            new AgentOptions(
                    Duration.ofSeconds(30),
                    Duration.ofMillis(100),
                    Duration.ofMillis(200),
                    Duration.ofHours(1),
                    Duration.ofMillis(100));

    /**
     * The kinds the pool controller, the agents and the tests use: the machine-config CRDs, the
     * ClusterOperator and ClusterVersion, and the OpenShift config kinds the templates read
     * (testkit's stand-ins).
     */
    private static final String[] CRDS = {
        "machineconfigpools.machineconfiguration.openshift.io",
        "machineconfigs.machineconfiguration.openshift.io",
        "machineconfignodes.machineconfiguration.openshift.io",
        "machineconfigurations.operator.openshift.io",
        "clusteroperators.config.openshift.io",
        "clusterversions.config.openshift.io",
        "proxies.config.openshift.io",
        "dnses.config.openshift.io",
        "networks.config.openshift.io",
        "infrastructures.config.openshift.io"
    };

    /**
     * An API server ({@link ApiServers}: the real one when there, with the controller-manager, so
     * that evictions honour budgets it keeps the status of), deploy/'s RBAC and the CRDs above.
     */
    public final ApiServer server;

    /** The kubelets of the nodes: evicted pods end after their grace period. */
    public final Kubelets kubelets;

    /** The pool controller's requests carry this User-Agent. */
    public static final String CONTROLLER = "upshift-pools";

    public final KubernetesClient client;

    /**
     * Each agent's own client, as each agent is a process of its own: a killed agent's connections
     * go with it.
     */
    private final Map<String, KubernetesClient> agentClients = new ConcurrentHashMap<>();

    public final KubernetesClient controllerClient;
    public final Path hosts;
    public final Map<String, SimulatedHost> machines = new ConcurrentHashMap<>();
    public final Map<String, NodeAgent> agents = new ConcurrentHashMap<>();
    public PoolController controller;
    public AgentOptions agentOptions = FAST;

    public PoolHarness(Path hosts) {
        this(hosts, ApiServers.with(CRDS).controllers().open().installRbac());
    }

    /**
     * On the embedded API server, for a test of what only it can do (another writer's change
     * landing between the controller's read and its write).
     */
    public static PoolHarness onEmbeddedServer(Path hosts) {
        return new PoolHarness(
                hosts, new EmbeddedApiServer().strict().installCrds(CRDS).installRbac());
    }

    /** The embedded server, for a test that only it can serve. */
    public EmbeddedApiServer embedded() {
        if (server instanceof EmbeddedApiServer e) return e;
        throw new IllegalStateException("this test needs the embedded API server");
    }

    private PoolHarness(Path hosts, ApiServer server) {
        this.server = server;
        this.kubelets = Kubelets.of(server);
        client = server.client();
        client.namespaces()
                .resource(
                        new io.fabric8.kubernetes.api.model.NamespaceBuilder()
                                .withNewMetadata()
                                .withName("shop")
                                .endMetadata()
                                .build())
                .create();
        controllerClient = server.client(CONTROLLER, ServiceAccount.MACHINE_CONFIG_OPERATOR);
        this.hosts = hosts;
    }

    public void pool(String name, Object maxUnavailable, boolean paused) {
        pool(name, maxUnavailable, paused, false);
    }

    /**
     * A pool of the nodes with role {@code name}; {@code required}: labelled required-for-upgrade,
     * as upstream's master pool.
     */
    public void pool(String name, Object maxUnavailable, boolean paused, boolean required) {
        client.resources(MachineConfigPool.class)
                .resource(
                        new MachineConfigPoolBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .withLabels(required ? Map.of(RequiredPools.LABEL, "") : null)
                                .endMetadata()
                                .withNewSpec()
                                .withNewMachineConfigSelector()
                                .addToMatchLabels("machineconfiguration.openshift.io/role", name)
                                .endMachineConfigSelector()
                                .withNewNodeSelector()
                                .addToMatchLabels(ROLE + name, "")
                                .endNodeSelector()
                                .withMaxUnavailable(
                                        maxUnavailable == null
                                                ? null
                                                : maxUnavailable instanceof Integer i
                                                        ? new IntOrString(i)
                                                        : new IntOrString(
                                                                maxUnavailable.toString()))
                                .withPaused(paused)
                                .endSpec()
                                .build())
                .create();
    }

    /**
     * A MachineConfig for a role writing {@code /etc/upshift-test/<name>} with the given content.
     */
    public void config(String name, String role, String content, String osImage) {
        client.resources(MachineConfig.class)
                .resource(
                        OneFileConfig.of(name, role, "/etc/upshift-test/" + name, content, osImage))
                .createOr(existing -> existing.update());
    }

    public void node(String name, String role, String zone, int ageMinutes) {
        Node node =
                new NodeBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .addToLabels(ROLE + role, "")
                        .addToLabels("topology.kubernetes.io/zone", zone)
                        .withCreationTimestamp(
                                Instant.parse("2026-11-01T00:00:00Z")
                                        .minusSeconds(60L * ageMinutes)
                                        .toString())
                        .endMetadata()
                        .withNewSpec()
                        .endSpec()
                        .withNewStatus()
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus()
                        .build();
        WithStatus.create(client, node);
        // kube-apiserver taints a new node not-ready (TaintNodesByCondition), and the node
        // lifecycle controller lifts the taint once the kubelet reports it Ready: that controller
        // does not run here (it would find no kubelet renewing the node's lease), so the harness
        // lifts it as it would
        if (server.real())
            client.nodes()
                    .withName(name)
                    .edit(
                            n -> {
                                if (n.getSpec().getTaints() != null)
                                    n.getSpec()
                                            .getTaints()
                                            .removeIf(
                                                    t ->
                                                            t.getKey()
                                                                    .equals(
                                                                            "node.kubernetes.io/not-ready"));
                                return n;
                            });
        machines.put(name, new SimulatedHost(Duration.ofMillis(150)));
    }

    public NodeAgent startAgent(String node) {
        return startAgent(node, Clock.systemUTC());
    }

    public NodeAgent startAgent(String node, Clock clock) {
        KubernetesClient own =
                NodeAgent.client(
                        server.config("upshift-agent", ServiceAccount.MACHINE_CONFIG_DAEMON));
        KubernetesClient previous = agentClients.put(node, own);
        if (previous != null)
            previous.close(); // the agent it served was killed: its process, connections and all,
        // is gone
        NodeAgent agent =
                new NodeAgent(
                                own,
                                node,
                                new HostFiles(hosts.resolve(node)),
                                machines.get(node),
                                agentOptions,
                                clock)
                        .start();
        agents.put(node, agent);
        return agent;
    }

    public void startAgents() {
        client.nodes().list().getItems().forEach(n -> startAgent(n.getMetadata().getName()));
    }

    public PoolController startController(String releaseVersion) {
        return startController(releaseVersion, Clock.systemUTC());
    }

    public PoolController startController(String releaseVersion, Clock clock) {
        return startController(releaseVersion, clock, o -> o);
    }

    /** The controller with the harness's options as {@code tune} changes them. */
    public PoolController startController(
            String releaseVersion,
            Clock clock,
            java.util.function.UnaryOperator<PoolControllerOptions> tune) {
        if (controller != null) controller.close();
        controller =
                new PoolController(
                                controllerClient,
                                clock,
                                tune.apply(
                                        new PoolControllerOptions(
                                                releaseVersion,
                                                "",
                                                Duration.ofMinutes(10),
                                                Duration.ofMillis(50),
                                                Duration.ofMillis(300))))
                        .start();
        return controller;
    }

    /**
     * One pool of one node, its agent and the controller of {@code release}, waited for until the
     * node runs the pool's first config; returns that config's name.
     */
    public String settledPoolOfOne(
            String role, String node, String content, String osImage, String release)
            throws InterruptedException {
        pool(role, 1, false);
        config("00-" + role, role, content, osImage);
        node(node, role, "a", 10);
        startAgents();
        startController(release);
        Awaitility.await("the first config on " + node)
                .atMost(Duration.ofSeconds(60))
                .until(() -> settled(role));
        return pool(role).getSpec().getConfiguration().getName();
    }

    /** A ClusterVersion updating from one release to another, for the status engine. */
    public void clusterVersion(String from, String to) {
        String now = Instant.now().minusSeconds(600).toString();
        ClusterVersion cv =
                new ClusterVersionBuilder()
                        .withNewMetadata()
                        .withName("version")
                        .endMetadata()
                        .withNewSpec()
                        .withClusterID("0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11")
                        .endSpec()
                        .withNewStatus()
                        .withNewDesired()
                        .withVersion(to)
                        .withImage("r@sha256:2")
                        .endDesired()
                        .addNewHistory()
                        .withVersion(to)
                        .withImage("r@sha256:2")
                        .withState("Partial")
                        .withStartedTime(now)
                        .withVerified(true)
                        .endHistory()
                        .addNewHistory()
                        .withVersion(from)
                        .withImage("r@sha256:1")
                        .withState("Completed")
                        .withStartedTime(now)
                        .withCompletionTime(now)
                        .withVerified(true)
                        .endHistory()
                        .addNewCondition()
                        .withType("Progressing")
                        .withStatus("True")
                        .withLastTransitionTime(now)
                        .withMessage("Working towards " + to)
                        .endCondition()
                        .addNewCondition()
                        .withType("Available")
                        .withStatus("True")
                        .withLastTransitionTime(now)
                        .endCondition()
                        .addNewCondition()
                        .withType("Failing")
                        .withStatus("False")
                        .withLastTransitionTime(now)
                        .endCondition()
                        .withObservedGeneration(1L)
                        .withVersionHash("h")
                        .endStatus()
                        .build();
        // the update in progress has no completion time yet: null, as its CRD requires the field
        ObjectNode status = Mappers.JSON.valueToTree(cv.getStatus());
        ((ObjectNode) status.path("history").get(0)).putNull("completionTime");
        cv.setStatus(null);
        WithStatus.create(client, cv, status);
    }

    public MachineConfigPool pool(String name) {
        return client.resources(MachineConfigPool.class).withName(name).get();
    }

    /**
     * The pool's condition of that type as the API holds it now, or null before the controller
     * wrote one.
     */
    public MachineConfigPoolCondition condition(String pool, String type) {
        MachineConfigPool p = pool(pool);
        return p.getStatus() == null
                ? null
                : p.getStatus().getConditions().stream()
                        .filter(c -> type.equals(c.getType()))
                        .findFirst()
                        .orElse(null);
    }

    public boolean conditionTrue(String pool, String type) {
        MachineConfigPoolCondition c = condition(pool, type);
        return c != null && "True".equals(c.getStatus());
    }

    public String annotation(String node, String key) {
        Map<String, String> a = client.nodes().withName(node).get().getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    /**
     * Every node of the role runs the pool's target config, Done, and the controller has lifted its
     * update taint.
     */
    public boolean settled(String pool) {
        MachineConfigPool p = pool(pool);
        if (p.getSpec().getConfiguration() == null) return false;
        String target = p.getSpec().getConfiguration().getName();
        return client.nodes().withLabel(ROLE + pool).list().getItems().stream()
                .allMatch(
                        n -> {
                            Map<String, String> a = n.getMetadata().getAnnotations();
                            return a != null
                                    && target.equals(a.get(NodeAnnotations.CURRENT_CONFIG))
                                    && NodeAnnotations.DONE.equals(a.get(NodeAnnotations.STATE))
                                    && !Boolean.TRUE.equals(n.getSpec().getUnschedulable())
                                    && (n.getSpec().getTaints() == null
                                            || n.getSpec().getTaints().stream()
                                                    .noneMatch(
                                                            t ->
                                                                    NodeAnnotations.UPDATE_TAINT
                                                                            .equals(t.getKey())));
                        });
    }

    /**
     * The pool's target and each of its nodes' annotations, cordon and taints: what a timed-out
     * wait names.
     */
    public String describe(String pool) {
        MachineConfigPool p = pool(pool);
        StringBuilder out =
                new StringBuilder(
                        "pool "
                                + pool
                                + " target "
                                + (p.getSpec().getConfiguration() == null
                                        ? null
                                        : p.getSpec().getConfiguration().getName()));
        for (var n : client.nodes().withLabel(ROLE + pool).list().getItems()) {
            out.append("\n")
                    .append(n.getMetadata().getName())
                    .append(": ")
                    .append(n.getMetadata().getAnnotations())
                    .append(" unschedulable=")
                    .append(n.getSpec().getUnschedulable())
                    .append(" taints=")
                    .append(n.getSpec().getTaints());
        }
        return out.toString();
    }

    @Override
    public void close() {
        agents.values().forEach(NodeAgent::close);
        if (controller != null) controller.close();
        agentClients.values().forEach(KubernetesClient::close);
        controllerClient.close();
        kubelets.close();
        server.close();
    }

    /**
     * Creates {@link #pod} in namespace {@code shop}, running and ready on {@code node}; a
     * DaemonSet's pod is owned by the DaemonSet {@code logs}, made first (a real cluster's garbage
     * collector deletes a pod whose owner is not there).
     */
    public Pod createPod(String name, String node, String app, boolean daemonSet) {
        Pod pod = pod(name, node, app, daemonSet);
        if (daemonSet) {
            var sets = client.apps().daemonSets().inNamespace("shop");
            var logs = sets.withName("logs").get();
            if (logs == null)
                logs =
                        sets.resource(
                                        new io.fabric8.kubernetes.api.model.apps.DaemonSetBuilder()
                                                .withNewMetadata()
                                                .withName("logs")
                                                .endMetadata()
                                                .withNewSpec()
                                                .withNewSelector()
                                                .addToMatchLabels("app", "logs")
                                                .endSelector()
                                                .withNewTemplate()
                                                .withNewMetadata()
                                                .addToLabels("app", "logs")
                                                .endMetadata()
                                                .withNewSpec()
                                                .addNewContainer()
                                                .withName("c")
                                                .withImage("i")
                                                .endContainer()
                                                .endSpec()
                                                .endTemplate()
                                                .endSpec()
                                                .build())
                                .create();
            pod.getMetadata().getOwnerReferences().get(0).setUid(logs.getMetadata().getUid());
            pod.getMetadata().getOwnerReferences().get(0).setController(true);
        }
        return WithStatus.create(client, pod);
    }

    public static Pod pod(String name, String node, String app, boolean daemonSet) {
        PodBuilder b =
                new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace("shop")
                        .addToLabels("app", app)
                        .endMetadata()
                        .withNewSpec()
                        .withNodeName(node)
                        .withTerminationGracePeriodSeconds(1L)
                        .addNewContainer()
                        .withName("c")
                        .withImage("i")
                        .endContainer()
                        .endSpec()
                        .withNewStatus()
                        .withPhase("Running")
                        .addNewCondition()
                        .withType("Ready")
                        .withStatus("True")
                        .endCondition()
                        .endStatus();
        if (daemonSet)
            b.editMetadata()
                    .addNewOwnerReference()
                    .withKind("DaemonSet")
                    .withName("logs")
                    .withApiVersion("apps/v1")
                    .withUid("u")
                    .endOwnerReference()
                    .endMetadata();
        return b.build();
    }

    /** The MachineConfigNode's condition of that type. */
    public static Condition mcnCondition(MachineConfigNode mcn, String type) {
        return mcn.getStatus().getConditions().stream()
                .filter(c -> type.equals(c.getType()))
                .findFirst()
                .orElseThrow();
    }

    /** A file's content on a simulated host, or null when it is absent. */
    public static String readFile(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : null;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
