package io.upshift.cli.demo;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import io.upshift.core.pools.NodeAnnotations;
import io.upshift.operator.agent.AgentOptions;
import io.upshift.operator.agent.HostFiles;
import io.upshift.operator.agent.NodeAgent;
import io.upshift.operator.agent.SimulatedHost;
import io.upshift.operator.pools.PoolController;
import io.upshift.operator.pools.PoolControllerOptions;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BooleanSupplier;

/** An embedded API server with evictions, pools and nodes, a pool controller and one agent per node on simulated hosts. */
final class PoolHarness implements AutoCloseable {
    static final String ROLE = "node-role.kubernetes.io/";
    static final AgentOptions FAST = new AgentOptions(Duration.ofSeconds(30), Duration.ofMillis(100), Duration.ofMillis(200),
            Duration.ofHours(1), Duration.ofMillis(100));

    final KubernetesMockServer server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), new EvictingDispatcher(), false);
    final KubernetesClient client;
    final Path hosts;
    final Map<String, SimulatedHost> machines = new ConcurrentHashMap<>();
    final Map<String, NodeAgent> agents = new ConcurrentHashMap<>();
    PoolController controller;
    AgentOptions agentOptions = FAST;

    PoolHarness(Path hosts) {
        server.init();
        client = server.createClient();
        this.hosts = hosts;
    }

    void pool(String name, Object maxUnavailable, boolean paused) {
        client.resources(MachineConfigPool.class).resource(new MachineConfigPoolBuilder().withNewMetadata().withName(name).endMetadata()
                .withNewSpec().withNewMachineConfigSelector().addToMatchLabels("machineconfiguration.openshift.io/role", name).endMachineConfigSelector()
                .withNewNodeSelector().addToMatchLabels(ROLE + name, "").endNodeSelector()
                .withMaxUnavailable(maxUnavailable == null ? null : maxUnavailable instanceof Integer i ? new IntOrString(i) : new IntOrString(maxUnavailable.toString()))
                .withPaused(paused).endSpec().build()).create();
    }

    /** A MachineConfig for a role writing {@code /etc/upshift-test/<name>} with the given content. */
    void config(String name, String role, String content, String osImage) {
        Map<String, Object> file = Map.of("path", "/etc/upshift-test/" + name, "mode", 420, "contents", Map.of("source", "data:," + content));
        client.resources(MachineConfig.class).resource(new MachineConfigBuilder().withNewMetadata().withName(name)
                .addToLabels("machineconfiguration.openshift.io/role", role).endMetadata()
                .withNewSpec().withConfig(Map.of("ignition", Map.of("version", "3.2.0"), "storage", Map.of("files", List.of(file))))
                .withOsImageURL(osImage).endSpec().build()).createOr(existing -> existing.update());
    }

    void node(String name, String role, String zone, int ageMinutes) {
        Node node = new NodeBuilder().withNewMetadata().withName(name).addToLabels(ROLE + role, "")
                .addToLabels("topology.kubernetes.io/zone", zone)
                .withCreationTimestamp(Instant.parse("2026-11-01T00:00:00Z").minusSeconds(60L * ageMinutes).toString()).endMetadata()
                .withNewSpec().endSpec()
                .withNewStatus().addNewCondition().withType("Ready").withStatus("True").endCondition().endStatus().build();
        client.nodes().resource(node).create();
        machines.put(name, new SimulatedHost(Duration.ofMillis(150)));
    }

    NodeAgent startAgent(String node) {
        NodeAgent agent = new NodeAgent(client, node, new HostFiles(hosts.resolve(node)), machines.get(node), agentOptions, Clock.systemUTC()).start();
        agents.put(node, agent);
        return agent;
    }

    void startAgents() {
        client.nodes().list().getItems().forEach(n -> startAgent(n.getMetadata().getName()));
    }

    PoolController startController(String releaseVersion) {
        if (controller != null) controller.close();
        controller = new PoolController(client, Clock.systemUTC(), new PoolControllerOptions(releaseVersion, "", Duration.ofMinutes(10),
                Duration.ofMillis(50), Duration.ofMillis(300))).start();
        return controller;
    }

    MachineConfigPool pool(String name) {
        return client.resources(MachineConfigPool.class).withName(name).get();
    }

    String annotation(String node, String key) {
        Map<String, String> a = client.nodes().withName(node).get().getMetadata().getAnnotations();
        return a == null ? null : a.get(key);
    }

    /** Every node of the role runs the pool's target config, Done. */
    boolean settled(String pool) {
        MachineConfigPool p = pool(pool);
        if (p.getSpec().getConfiguration() == null) return false;
        String target = p.getSpec().getConfiguration().getName();
        return client.nodes().withLabel(ROLE + pool).list().getItems().stream().allMatch(n -> {
            Map<String, String> a = n.getMetadata().getAnnotations();
            return a != null && target.equals(a.get(NodeAnnotations.CURRENT_CONFIG)) && NodeAnnotations.DONE.equals(a.get(NodeAnnotations.STATE))
                    && !Boolean.TRUE.equals(n.getSpec().getUnschedulable());
        });
    }

    static void await(String what, Duration limit, BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) throw new AssertionError("timed out waiting for " + what);
            Thread.sleep(50);
        }
    }

    @Override
    public void close() {
        agents.values().forEach(NodeAgent::close);
        if (controller != null) controller.close();
        client.close();
        server.destroy();
    }
}
