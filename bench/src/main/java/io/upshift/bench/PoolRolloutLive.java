package io.upshift.bench;

import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import io.upshift.pools.agent.AgentOptions;
import io.upshift.pools.agent.HostFiles;
import io.upshift.pools.agent.NodeAgent;
import io.upshift.pools.agent.SimulatedHost;
import io.upshift.pools.controller.PoolController;
import io.upshift.pools.controller.PoolControllerOptions;
import io.upshift.pools.model.MaxUnavailable;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.OneFileConfig;
import io.upshift.pools.model.PoolMembers;
import io.upshift.pools.model.PoolNode;
import io.upshift.releases.image.FileTrees;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.stream.IntStream;

/**
 * A pool rollout through the real path: the embedded API server (with evictions), the real pool
 * controller, and one real node agent per node, each on a simulated host whose reboot takes T.
 * Every node starts Done on the pool's config; then the pool's MachineConfig changes, and the clock
 * runs until the pool reports every node updated to the new config. Prints the total against the
 * critical-path lower bound ceil(N / maxUnavailable) x T, the most nodes unavailable at once (as
 * the controller counts them, seen through a watch on the nodes) and the API requests served.
 * Usage: PoolRolloutLive [nodes] [maxUnavailable] [T seconds].
 */
public final class PoolRolloutLive {
    private static final Clock CLOCK = Clock.systemUTC();

    public static void main(String[] args) throws Exception {
        int n = args.length > 0 ? Integer.parseInt(args[0]) : 1000;
        String maxSpec = args.length > 1 ? args[1] : "10%";
        double t = args.length > 2 ? Double.parseDouble(args[2]) : 10;
        // a line per node step otherwise
        System.setProperty("org.slf4j.simpleLogger.log.io.upshift.pools", "warn");
        Path hosts = Files.createTempDirectory("upshift-pool-rollout-");
        EmbeddedApiServer server = new EmbeddedApiServer().installRbac();
        KubernetesClient client = server.client();
        KubernetesClient poolsClient =
                server.client("upshift-pools", ServiceAccount.MACHINE_CONFIG_OPERATOR);
        KubernetesClient agentClient =
                NodeAgent.client(
                        server.config("upshift-agent", ServiceAccount.MACHINE_CONFIG_DAEMON));
        List<NodeAgent> agents = new ArrayList<>();
        PoolController controller = null;
        SharedIndexInformer<Node> watch = null;
        try {
            client.resources(MachineConfigPool.class)
                    .resource(
                            new MachineConfigPoolBuilder()
                                    .withNewMetadata()
                                    .withName("worker")
                                    .endMetadata()
                                    .withNewSpec()
                                    .withNewMachineConfigSelector()
                                    .addToMatchLabels(
                                            "machineconfiguration.openshift.io/role", "worker")
                                    .endMachineConfigSelector()
                                    .withNewNodeSelector()
                                    .addToMatchLabels("node-role.kubernetes.io/worker", "")
                                    .endNodeSelector()
                                    .withMaxUnavailable(new IntOrString(maxSpec))
                                    .endSpec()
                                    .build())
                    .create();
            config(client, "old");
            controller =
                    new PoolController(poolsClient, CLOCK, PoolControllerOptions.defaults("4.19.0"))
                            .start();
            await(Duration.ofSeconds(30), () -> target(client) != null);
            String old = target(client);

            // An installed cluster: every node already runs the pool's config.
            for (int i = 0; i < n; i++) {
                client.nodes()
                        .resource(
                                new NodeBuilder()
                                        .withNewMetadata()
                                        .withName(String.format("worker-%04d", i))
                                        .addToLabels("node-role.kubernetes.io/worker", "")
                                        .addToLabels(PoolMembers.ZONE_LABEL, "zone-" + (i % 3))
                                        .withCreationTimestamp(
                                                Instant.parse("2026-01-01T00:00:00Z")
                                                        .plusSeconds(i)
                                                        .toString())
                                        .addToAnnotations(NodeAnnotations.CURRENT_CONFIG, old)
                                        .addToAnnotations(NodeAnnotations.DESIRED_CONFIG, old)
                                        .addToAnnotations(
                                                NodeAnnotations.STATE, NodeAnnotations.DONE)
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
            }
            AgentOptions options =
                    new AgentOptions(
                            Duration.ofMinutes(10),
                            Duration.ofSeconds(1),
                            Duration.ofSeconds(5),
                            Duration.ofMinutes(1),
                            Duration.ofSeconds(30));
            Duration reboot = Duration.ofMillis((long) (t * 1000));
            for (Node node : client.nodes().list().getItems()) {
                String name = node.getMetadata().getName();
                agents.add(
                        new NodeAgent(
                                        agentClient,
                                        name,
                                        new HostFiles(hosts.resolve(name)),
                                        new SimulatedHost(reboot),
                                        options,
                                        CLOCK)
                                .start());
            }
            Set<String> unavailable = ConcurrentHashMap.newKeySet();
            AtomicInteger most = new AtomicInteger();
            Map<String, long[]> phases =
                    new ConcurrentHashMap<>(); // per node: told, rebooting, done (nanoTime)
            watch =
                    client.nodes()
                            .inform(
                                    new ResourceEventHandler<>() {
                                        @Override
                                        public void onAdd(Node node) {
                                            onUpdate(null, node);
                                        }

                                        @Override
                                        public void onUpdate(Node before, Node node) {
                                            PoolNode view = PoolMembers.view(node, "");
                                            if (view.unavailable()) unavailable.add(view.name());
                                            else unavailable.remove(view.name());
                                            most.accumulateAndGet(unavailable.size(), Math::max);
                                            if (view.desiredConfig().equals(old)) return;
                                            long[] times =
                                                    phases.computeIfAbsent(
                                                            view.name(), k -> new long[3]);
                                            int phase =
                                                    view.done()
                                                                    && Boolean.FALSE.equals(
                                                                            node.getSpec()
                                                                                    .getUnschedulable())
                                                            ? 2
                                                            : NodeAnnotations.REBOOTING.equals(
                                                                            view.state())
                                                                    ? 1
                                                                    : 0;
                                            if (times[phase] == 0) times[phase] = System.nanoTime();
                                        }

                                        @Override
                                        public void onDelete(Node node, boolean unknown) {}
                                    });
            int requestsBefore = server.requests().size();
            System.out.printf(
                    "%d nodes on %s, %d agents started; changing the pool's MachineConfig%n",
                    n, old, agents.size());

            long start = System.nanoTime();
            config(client, "new");
            int[] lastReported = {-1};
            await(
                    Duration.ofHours(2),
                    () -> {
                        MachineConfigPool pool =
                                client.resources(MachineConfigPool.class).withName("worker").get();
                        var s = pool.getStatus();
                        boolean done =
                                s != null
                                        && s.getConfiguration() != null
                                        && !old.equals(s.getConfiguration().getName())
                                        && s.getConfiguration()
                                                .getName()
                                                .equals(pool.getSpec().getConfiguration().getName())
                                        && Integer.valueOf(n).equals(s.getUpdatedMachineCount())
                                        && Integer.valueOf(n).equals(s.getReadyMachineCount());
                        int updated =
                                s == null || s.getUpdatedMachineCount() == null
                                        ? 0
                                        : s.getUpdatedMachineCount();
                        if (updated / Math.max(1, n / 10) != lastReported[0]) {
                            lastReported[0] = updated / Math.max(1, n / 10);
                            System.out.printf(
                                    "  %6.1f s: %d of %d updated, %d unavailable%n",
                                    (System.nanoTime() - start) / 1e9,
                                    updated,
                                    n,
                                    unavailable.size());
                        }
                        return done;
                    });
            double total = (System.nanoTime() - start) / 1e9;
            int max = MaxUnavailable.resolve(maxSpec, n);
            double bound = Math.ceil((double) n / max) * t;
            System.out.printf(
                    "%d nodes, maxUnavailable %s (= %d), T = %.1f s: total %.1f s, lower bound %.1f"
                            + " s, ratio %.3f; at most %d unavailable; %d API requests during the"
                            + " rollout%n",
                    n,
                    maxSpec,
                    max,
                    t,
                    total,
                    bound,
                    total / bound,
                    most.get(),
                    server.requests().size() - requestsBefore);
            double toReboot =
                    phases.values().stream().mapToLong(p -> p[1] - p[0]).average().orElse(0) / 1e6;
            double afterReboot =
                    phases.values().stream().mapToLong(p -> p[2] - p[1]).average().orElse(0) / 1e6
                            - t * 1000;
            double firstTold =
                    (phases.values().stream().mapToLong(p -> p[0]).min().orElse(start) - start)
                            / 1e6;
            // The k-th node to finish frees the place the (k + max)-th node to start takes: the
            // controller's reaction time.
            long[] told = phases.values().stream().mapToLong(p -> p[0]).sorted().toArray();
            long[] done = phases.values().stream().mapToLong(p -> p[2]).sorted().toArray();
            double reaction =
                    IntStream.range(0, Math.max(0, n - max))
                                    .mapToLong(k -> told[k + max] - done[k])
                                    .average()
                                    .orElse(0)
                            / 1e6;
            System.out.printf(
                    "per node (means): told -> Rebooting %.0f ms, Rebooting -> Done and uncordoned"
                        + " %.0f ms beyond T, a node Done -> the next told %.0f ms; the first node"
                        + " told %.0f ms after the MachineConfig changed%n",
                    toReboot, afterReboot, reaction, firstTold);
        } finally {
            agents.parallelStream().forEach(NodeAgent::close);
            if (watch != null) watch.close();
            if (controller != null) controller.close();
            agentClient.close();
            poolsClient.close();
            client.close();
            server.close();
            FileTrees.deleteQuietly(hosts);
        }
    }

    /** A MachineConfig for the workers writing one file; a new content is a new rendered config. */
    private static void config(KubernetesClient client, String content) {
        client.resources(MachineConfig.class)
                .resource(
                        OneFileConfig.of(
                                "00-worker",
                                "worker",
                                "/etc/upshift-bench/config",
                                content,
                                "quay.example/node-os:" + content))
                .createOr(existing -> existing.update());
    }

    private static String target(KubernetesClient client) {
        MachineConfigPool pool = client.resources(MachineConfigPool.class).withName("worker").get();
        return pool.getSpec().getConfiguration() == null
                ? null
                : pool.getSpec().getConfiguration().getName();
    }

    private static void await(Duration limit, BooleanSupplier condition)
            throws InterruptedException {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline)
                throw new IllegalStateException("timed out after " + limit);
            Thread.sleep(200);
        }
    }
}
