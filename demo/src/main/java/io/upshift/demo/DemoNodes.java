package io.upshift.demo;

import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.pools.agent.AgentOptions;
import io.upshift.pools.agent.HostFiles;
import io.upshift.pools.agent.NodeAgent;
import io.upshift.pools.agent.SimulatedHost;
import io.upshift.pools.controller.PoolController;
import io.upshift.pools.controller.PoolControllerOptions;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * The demo's machines: control-plane and worker nodes on simulated hosts, the real node agent on
 * each, and the real pool controller of whichever release's machine-config operator has rolled out;
 * the next release's replaces it, as Kubernetes replaces the operator's pod.
 */
public final class DemoNodes implements AutoCloseable {
    /** The node the pool controller runs on: its pool updates it last. */
    static final String CONTROLLER_NODE = "master-0";

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
    private final int masters;
    private final int workers;
    private final Duration reboot;
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
     * Nodes registered with {@code server}'s client; the pool controller and the agents talk with
     * clients of their own, as their deploy/ ServiceAccounts.
     */
    public DemoNodes(
            EmbeddedApiServer server,
            Path hosts,
            int masters,
            int workers,
            Duration reboot,
            Clock clock) {
        this.setup = server.client();
        this.client = server.client(POOLS, ServiceAccount.MACHINE_CONFIG_OPERATOR);
        this.agentClient =
                NodeAgent.client(server.config(AGENTS, ServiceAccount.MACHINE_CONFIG_DAEMON));
        this.hosts = hosts;
        this.masters = masters;
        this.workers = workers;
        this.reboot = reboot;
        this.clock = clock;
    }

    /**
     * Registers the nodes and starts an agent on each; they wait until the pool controller gives
     * them a config.
     */
    public DemoNodes start() {
        for (int i = 0; i < masters; i++) node("master-" + i, "master", i);
        for (int i = 0; i < workers; i++) node("worker-" + i, "worker", i);
        return this;
    }

    private void node(String name, String role, int index) {
        setup.nodes()
                .resource(
                        new NodeBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .addToLabels("node-role.kubernetes.io/" + role, "")
                                .addToLabels(
                                        PoolMembers.ZONE_LABEL, "zone-" + (char) ('a' + index % 3))
                                .withCreationTimestamp(
                                        clock.instant().minusSeconds(60L * index).toString())
                                .endMetadata()
                                .withNewSpec()
                                .endSpec()
                                .withNewStatus()
                                .addNewCondition()
                                .withType("Ready")
                                .withStatus("True")
                                .endCondition()
                                .endStatus()
                                .build())
                .create();
        SimulatedHost machine = new SimulatedHost(reboot);
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
        replacements.submit(() -> replace(version));
    }

    private synchronized void replace(String version) {
        if (controller != null) controller.close();
        controller =
                new PoolController(
                                client,
                                clock,
                                new PoolControllerOptions(
                                        version,
                                        CONTROLLER_NODE,
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
        return reboot.multipliedBy(masters);
    }

    /** Every pool is Updated, to a config rendered by {@code version}'s controller. */
    public boolean updated(String version) {
        List<MachineConfigPool> pools = setup.resources(MachineConfigPool.class).list().getItems();
        return !pools.isEmpty()
                && pools.stream()
                        .allMatch(
                                p -> {
                                    if (p.getStatus() == null
                                            || p.getStatus().getConfiguration() == null
                                            || p.getStatus().getConditions() == null) return false;
                                    boolean done =
                                            p.getStatus().getConditions().stream()
                                                    .anyMatch(
                                                            c ->
                                                                    "Updated".equals(c.getType())
                                                                            && "True"
                                                                                    .equals(
                                                                                            c
                                                                                                    .getStatus()));
                                    String target = p.getStatus().getConfiguration().getName();
                                    MachineConfig rendered =
                                            target == null
                                                    ? null
                                                    : setup.resources(MachineConfig.class)
                                                            .withName(target)
                                                            .get();
                                    return done
                                            && rendered != null
                                            && rendered.getMetadata().getAnnotations() != null
                                            && version.equals(
                                                    rendered.getMetadata()
                                                            .getAnnotations()
                                                            .get(
                                                                    NodeAnnotations
                                                                            .RELEASE_IMAGE_VERSION));
                                });
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
