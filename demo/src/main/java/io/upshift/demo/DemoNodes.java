package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.pools.agent.AgentOptions;
import io.upshift.pools.agent.HostFiles;
import io.upshift.pools.agent.NodeAgent;
import io.upshift.pools.agent.SimulatedHost;
import io.upshift.pools.controller.PoolController;
import io.upshift.pools.controller.PoolControllerOptions;
import io.upshift.pools.model.PoolMembers;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * The cluster's machines: the given nodes, each registered and run on a simulated host by the real
 * node agent, and the real pool controller of whichever release's machine-config operator has
 * rolled out; the next release's replaces it, as Kubernetes replaces the operator's pod. The pool
 * controller runs on the first control-plane node, which its pool therefore updates last.
 */
public final class DemoNodes implements AutoCloseable {
    /** The label of a control-plane node. */
    static final String CONTROL_PLANE = "node-role.kubernetes.io/master";

    private static final AgentOptions AGENT =
            new AgentOptions(
                    Duration.ofMinutes(2),
                    Duration.ofMillis(500),
                    Duration.ofSeconds(2),
                    Duration.ofSeconds(30),
                    Duration.ofMillis(200));

    private final KubernetesClient client;
    private final KubernetesClient agentClient;
    private final Path hosts;
    private final List<Node> nodes;
    private final String controllerNode;
    private final Function<String, Duration> reboot;
    private final Clock clock;
    private final List<NodeAgent> agents = new ArrayList<>();
    private final Map<String, SimulatedHost> machines = new ConcurrentHashMap<>();
    private final ExecutorService replacements =
            Executors.newSingleThreadExecutor(
                    r -> {
                        Thread t = new Thread(r, "demo-machine-config-operator");
                        t.setDaemon(true);
                        return t;
                    });
    private PoolController controller;

    /** The pool controller's requests carry this User-Agent, the agents' {@link #AGENTS}. */
    public static final String POOLS = "upshift-pools";

    public static final String AGENTS = "upshift-agent";

    private final KubernetesClient setup;

    /**
     * The demo's machines: {@code masters} control-plane nodes ({@code master-0} ...) and {@code
     * workers} worker nodes ({@code worker-0} ...), Ready, spread over three zones, each a minute
     * older than the one before it in its role, the first created at {@code now}.
     */
    public static List<Node> machines(int masters, int workers, Instant now) {
        List<Node> out = new ArrayList<>();
        for (int i = 0; i < masters; i++) out.add(node("master-" + i, "master", i, now));
        for (int i = 0; i < workers; i++) out.add(node("worker-" + i, "worker", i, now));
        return out;
    }

    private static Node node(String name, String role, int index, Instant now) {
        return new NodeBuilder()
                .withNewMetadata()
                .withName(name)
                .addToLabels("node-role.kubernetes.io/" + role, "")
                .addToLabels(PoolMembers.ZONE_LABEL, "zone-" + (char) ('a' + index % 3))
                .withCreationTimestamp(now.minusSeconds(60L * index).toString())
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
    }

    /**
     * {@code nodes}, to be registered with {@code server}'s client, their hosts' files under {@code
     * hosts} (one directory each, by name); the pool controller and the agents talk with clients of
     * their own, as their deploy/ ServiceAccounts.
     *
     * @param reboot how long a simulated host takes to reboot, by node name
     */
    DemoNodes(
            EmbeddedApiServer server,
            Path hosts,
            List<Node> nodes,
            Function<String, Duration> reboot,
            Clock clock) {
        if (nodes.isEmpty()) throw new IllegalArgumentException("no nodes");
        this.setup = server.client();
        this.client = server.client(POOLS, ServiceAccount.MACHINE_CONFIG_OPERATOR);
        this.agentClient =
                NodeAgent.client(server.config(AGENTS, ServiceAccount.MACHINE_CONFIG_DAEMON));
        this.hosts = hosts;
        this.nodes = List.copyOf(nodes);
        this.controllerNode =
                this.nodes.stream()
                        .filter(DemoNodes::controlPlane)
                        .findFirst()
                        .orElse(this.nodes.get(0))
                        .getMetadata()
                        .getName();
        this.reboot = reboot;
        this.clock = clock;
    }

    /**
     * Registers the nodes and starts an agent on each; they wait until the pool controller gives
     * them a config.
     */
    DemoNodes start() {
        for (Node n : nodes) {
            setup.nodes().resource(n).create();
            String name = n.getMetadata().getName();
            SimulatedHost machine = new SimulatedHost(reboot.apply(name));
            machines.put(name, machine);
            agents.add(
                    new NodeAgent(
                                    agentClient,
                                    name,
                                    new HostFiles(hosts.resolve(name)),
                                    machine,
                                    AGENT,
                                    clock)
                            .start());
        }
        return this;
    }

    private static boolean controlPlane(Node n) {
        return n.getMetadata().getLabels() != null
                && n.getMetadata().getLabels().containsKey(CONTROL_PLANE);
    }

    /** How often each node's simulated host has rebooted so far. */
    public Map<String, Integer> reboots() {
        Map<String, Integer> out = new TreeMap<>();
        machines.forEach((name, machine) -> out.put(name, machine.reboots()));
        return out;
    }

    /**
     * The machine-config operator of {@code version} rolled out: its pool controller replaces the
     * one running.
     */
    public void release(String version) {
        replacements.execute(() -> replace(version)); // a failure is printed, not kept in a Future
    }

    private synchronized void replace(String version) {
        if (controller != null) controller.close();
        controller =
                new PoolController(
                                client,
                                clock,
                                new PoolControllerOptions(
                                        version,
                                        controllerNode,
                                        Duration.ofMinutes(10),
                                        Duration.ofMillis(100),
                                        Duration.ofSeconds(5)))
                        .start();
    }

    /**
     * The least time the control-plane pool's rollout takes: its nodes one at a time
     * (maxUnavailable 1), each a reboot.
     */
    public Duration controlPlaneRollout() {
        return nodes.stream()
                .filter(DemoNodes::controlPlane)
                .map(n -> reboot.apply(n.getMetadata().getName()))
                .reduce(Duration.ZERO, Duration::plus);
    }

    @Override
    public void close() {
        replacements.shutdownNow();
        try {
            replacements.awaitTermination(5, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        agents.forEach(NodeAgent::close);
        synchronized (this) {
            if (controller != null) controller.close();
        }
        agentClient.close();
        client.close();
        setup.close();
    }
}
