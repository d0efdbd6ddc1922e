package io.upshift.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.api.json.Mappers;
import io.upshift.api.update.UpdateStatus;
import io.upshift.api.update.insight.InsightKinds;
import io.upshift.api.update.insight.NodeProgressInsight;
import io.upshift.status.controller.UpdateStatusController;
import io.upshift.status.synthetic.SyntheticCluster;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.RequestLog;
import io.upshift.testkit.ServiceAccount;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The UpdateStatus controller at scale: the embedded API server (with Upshift's CRDs) holding a
 * synthetic cluster of N worker nodes mid-update (20 worker pools, 60 operators; nodes as large as
 * real ones), and the controller as {@code upshift operator} runs it (1 s between evaluations, 30 s
 * resync), from its start for one minute of real time, then until its first evaluation's writes are
 * done if that takes longer. The cluster is created in parallel beforehand; progress goes to
 * stderr, and so does what one node's change (Updating to Rebooting) costs after the minute. Ends
 * with one line: {@code N nodes: largest object B bytes, objects K, writes in the first minute W,
 * heap H MiB}: B the largest object the controller keeps (insight objects and the UpdateStatus, as
 * JSON), K how many it keeps, W the controller's writes the server logged in its first minute, H
 * the used heap of this JVM (server, cluster, controller) after GC at the end.
 *
 * <p>Usage: {@code UpdateStatusScale [NODES]} (default 10000).
 */
public final class UpdateStatusScale {
    private static final String AGENT = "upshift-operator";
    private static final String MCO = "machineconfiguration.openshift.io/";
    private static final List<String> CRDS =
            List.of(
                    "updatestatuses",
                    "clusterversionprogressinsights",
                    "clusteroperatorprogressinsights",
                    "machineconfigpoolprogressinsights",
                    "nodeprogressinsights",
                    "healthinsights");

    private UpdateStatusScale() {}

    public static void main(String[] args) throws Exception {
        int nodes = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        System.setProperty("org.slf4j.simpleLogger.log.io.upshift", "warn");
        // the mock serves a list of 10,000 nodes on its one event loop for seconds: Vert.x warns
        // with a stack trace each time
        System.setProperty(
                "org.slf4j.simpleLogger.log.io.vertx.core.impl.BlockedThreadChecker", "error");
        try (EmbeddedApiServer server = new EmbeddedApiServer()) {
            server.installCrds(
                            CRDS.stream()
                                    .map(c -> c + ".update.openshift.io")
                                    .toArray(String[]::new))
                    .installRbac();
            create(
                    server.client(),
                    new SyntheticCluster(nodes, 20, 60, 1.0, Instant.now()).objects());

            int mark = server.requests().size();
            long start = System.nanoTime();
            KubernetesClient client = server.client(AGENT, ServiceAccount.UPSHIFT);
            UpdateStatusController controller =
                    new UpdateStatusController(
                            client,
                            Clock.systemUTC(),
                            Duration.ofSeconds(1),
                            Duration.ofSeconds(30),
                            Optional::empty);
            controller.start();
            long deadline = start + Duration.ofMinutes(1).toNanos();
            while (System.nanoTime() < deadline) {
                Thread.sleep(
                        Math.min(5000, Math.max(1, (deadline - System.nanoTime()) / 1_000_000)));
                System.err.printf(
                        "%.0f s: %d writes%n",
                        (System.nanoTime() - start) / 1e9, controller.writes());
            }
            int writes = writesSince(server.requests(), mark);
            while (!summaryWritten(server.client())) {
                Thread.sleep(1000);
                System.err.printf(
                        "%.0f s: %d writes, first evaluation still writing%n",
                        (System.nanoTime() - start) / 1e9, controller.writes());
            }
            controller.evaluate(); // after any evaluation under way: everything written
            churn(server, controller);
            int largest = 0;
            int objects = 0;
            for (Class<? extends HasMetadata> kind : kinds()) {
                for (HasMetadata o : server.client().resources(kind).list().getItems()) {
                    largest = Math.max(largest, Mappers.JSON.writeValueAsBytes(o).length);
                    objects++;
                }
            }
            double heap = usedAfterGc() / 1048576.0;
            controller.close();
            client.close();
            System.out.printf(
                    "%d nodes: largest object %d bytes, objects %d, writes in the first minute %d,"
                            + " heap %.1f MiB%n",
                    nodes, largest, objects, writes, heap);
        }
    }

    /**
     * Creates the cluster's objects on a few threads: the server takes them one at a time, clients
     * prepare them in parallel.
     */
    private static void create(KubernetesClient client, List<HasMetadata> objects)
            throws Exception {
        long start = System.nanoTime();
        objects.stream()
                .filter(Node.class::isInstance)
                .forEach(n -> SnapshotWriter.addBulk((Node) n));
        AtomicInteger done = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<?>> all = new ArrayList<>();
            for (HasMetadata o : objects) {
                all.add(
                        pool.submit(
                                () -> {
                                    client.resource(o).create();
                                    int n = done.incrementAndGet();
                                    if (n % 2000 == 0)
                                        System.err.printf(
                                                "created %d of %d objects in %.1f s%n",
                                                n,
                                                objects.size(),
                                                (System.nanoTime() - start) / 1e9);
                                }));
            }
            for (Future<?> f : all) f.get();
        } finally {
            pool.shutdown();
        }
        System.err.printf(
                "created %d objects in %.1f s%n",
                objects.size(), (System.nanoTime() - start) / 1e9);
    }

    /**
     * One node going from Updating to Rebooting (the pool's counts stay): on stderr, what the
     * controller wrote for it.
     */
    private static void churn(EmbeddedApiServer server, UpdateStatusController controller)
            throws InterruptedException {
        KubernetesClient client = server.client();
        Node node =
                client.nodes().list().getItems().stream()
                        .filter(
                                n -> {
                                    var a = n.getMetadata().getAnnotations();
                                    return "Working".equals(a.get(MCO + "state"))
                                            && !a.getOrDefault(MCO + "desiredDrain", "")
                                                    .startsWith("drain-");
                                })
                        .findFirst()
                        .orElse(null);
        if (node == null) return;
        int mark = server.requests().size();
        node.getMetadata().getAnnotations().put(MCO + "state", "Rebooting");
        client.resource(node).update();
        String name = node.getMetadata().getName();
        while (!client
                .resources(NodeProgressInsight.class)
                .withName(name)
                .get()
                .getStatus()
                .conditions()
                .stream()
                .anyMatch(c -> c.getReason().equals("Rebooting"))) {
            Thread.sleep(100);
        }
        controller.evaluate();
        List<RequestLog.Request> all = server.requests().matching(r -> true);
        List<RequestLog.Request> writes =
                all.subList(mark, all.size()).stream()
                        .filter(r -> r.isWrite() && r.userAgent().equals(AGENT))
                        .toList();
        System.err.printf(
                "node %s Updating -> Rebooting: %d write(s): %s%n", name, writes.size(), writes);
    }

    private static List<Class<? extends HasMetadata>> kinds() {
        List<Class<? extends HasMetadata>> kinds = new ArrayList<>(InsightKinds.ALL);
        kinds.add(UpdateStatus.class);
        return kinds;
    }

    private static int writesSince(RequestLog log, int mark) {
        List<RequestLog.Request> all = log.matching(r -> true);
        return (int)
                all.subList(mark, all.size()).stream()
                        .filter(r -> r.isWrite() && r.userAgent().equals(AGENT))
                        .count();
    }

    private static boolean summaryWritten(KubernetesClient client) {
        UpdateStatus us = client.resources(UpdateStatus.class).withName(UpdateStatus.NAME).get();
        return us != null && us.getStatus() != null;
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
