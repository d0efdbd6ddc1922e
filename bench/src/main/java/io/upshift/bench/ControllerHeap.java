package io.upshift.bench;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.upshift.api.update.UpdateStatus;
import io.upshift.status.controller.UpdateStatusController;
import io.upshift.status.controller.UpdateStatusReader;
import io.upshift.status.synthetic.SyntheticCluster;
import java.lang.management.ManagementFactory;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Optional;

/**
 * The heap the UpdateStatus controller retains for a cluster of N worker nodes (each node as large
 * as a real one). The cluster is served by an in-process fabric8 mock server; the controller's
 * share is the used heap after a full GC with the controller running (informer caches filled,
 * status written) minus the used heap after a full GC before it started.
 *
 * <p>Usage: {@code ControllerHeap NODES}
 */
public final class ControllerHeap {
    private ControllerHeap() {}

    public static void main(String[] args) throws Exception {
        int nodes = Integer.parseInt(args.length > 0 ? args[0] : "5000");
        Instant at = Instant.parse("2026-11-20T10:00:00Z");
        KubernetesMockServer server =
                new KubernetesMockServer(
                        new Context(),
                        new MockWebServer(),
                        new HashMap<>(),
                        new KubernetesCrudDispatcher(),
                        false);
        server.init();
        try (KubernetesClient setup = server.createClient()) {
            for (HasMetadata o : new SyntheticCluster(nodes, 20, 60, 1.0, at).objects()) {
                if (o instanceof Node n) {
                    SnapshotWriter.addBulk(n);
                }
                setup.resource(o).create();
            }
        }
        long before = usedAfterGc();
        KubernetesClient client = server.createClient();
        UpdateStatusController controller =
                new UpdateStatusController(
                        client,
                        Clock.systemUTC(),
                        Duration.ofSeconds(1),
                        Duration.ofMinutes(10),
                        Optional::empty);
        long start = System.nanoTime();
        controller.start();
        // the summary is written last: once it is there, every insight object is
        while (client.resources(UpdateStatus.class).withName(UpdateStatus.NAME).get() == null
                || client.resources(UpdateStatus.class)
                                .withName(UpdateStatus.NAME)
                                .get()
                                .getStatus()
                        == null) {
            Thread.sleep(100);
        }
        long firstWrite = System.nanoTime() - start;
        controller.evaluate(); // after the evaluation under way: the caches hold what was written
        long after = usedAfterGc();
        System.out.printf(
                "nodes=%d first-status-write=%.1fs controller-heap=%.1f MiB (used after GC: %.1f"
                        + " MiB before, %.1f MiB with controller) insights=%d%n",
                nodes,
                firstWrite / 1e9,
                (after - before) / 1048576.0,
                before / 1048576.0,
                after / 1048576.0,
                UpdateStatusReader.read(client).insights().size());
        controller.close();
        client.close();
        server.destroy();
    }

    private static long usedAfterGc() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}
