package io.upshift.bench;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.demo.DemoController;
import io.upshift.demo.DemoNodes;
import io.upshift.demo.DemoRun;
import io.upshift.releases.image.FileTrees;
import io.upshift.runtime.kube.Leadership;
import io.upshift.status.controller.UpdateStatusController;
import io.upshift.testkit.RequestLog;
import io.upshift.testkit.ServiceAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;

/**
 * What the controllers cost a level cluster: the whole system on the embedded API server (the
 * cluster-version controller with production timings, the pool controller and an agent per node,
 * and the UpdateStatus controller under its Lease as {@code upshift operator} runs it) installs a
 * release, updates to the next, and then stays level for the measured time, real time. Counts every
 * request the controllers send in that time, apart from watches and the Lease's renewals, and the
 * renewals on their own. Usage: {@code ControllerIdle [MINUTES] [MASTERS] [WORKERS]} (default 5, 3,
 * 3). Prints a line per controller, then {@code idle requests per minute: N (lease renewals per
 * minute: L)}.
 */
public final class ControllerIdle {
    private static final String OPERATOR = "upshift-operator";
    private static final String LEASE = "upshift-lease";

    public static void main(String[] args) throws Exception {
        double minutes = args.length > 0 ? Double.parseDouble(args[0]) : 5;
        int masters = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        int workers = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        System.setProperty("org.slf4j.simpleLogger.log.io.upshift", "warn");
        Path work = Files.createTempDirectory("upshift-bench-idle-");
        DemoRun.Settings settings =
                new DemoRun.Settings(12, 4, Duration.ofMillis(500), 1, work, masters, workers)
                        .withControllerOptions(
                                o ->
                                        o.withTiming(
                                                o.taskWait(),
                                                Duration.ofMinutes(2),
                                                o.progressInterval()));
        try (DemoRun demo = new DemoRun(settings, l -> {}).start();
                KubernetesClient operatorClient =
                        demo.cluster().server().client(OPERATOR, ServiceAccount.UPSHIFT);
                KubernetesClient leaseClient =
                        demo.cluster().server().client(LEASE, ServiceAccount.UPSHIFT)) {
            UpdateStatusController[] status = new UpdateStatusController[1];
            try (Leadership leadership =
                    new Leadership(
                            leaseClient,
                            "openshift-cluster-version",
                            "version",
                            "bench",
                            () -> {
                                status[0] =
                                        new UpdateStatusController(
                                                operatorClient,
                                                Clock.systemUTC(),
                                                Duration.ofSeconds(1),
                                                Duration.ofSeconds(30),
                                                Optional::empty);
                                status[0].start();
                            },
                            () -> {})) {
                Duration limit = Duration.ofMinutes(10);
                if (!demo.admin().await(DemoRun.FROM, limit, () -> {})
                        || !demo.admin().awaitNodes(DemoRun.FROM, limit, () -> {}))
                    throw new IllegalStateException("install did not complete");
                demo.requestUpdate();
                if (!demo.admin().await(DemoRun.TO, limit, () -> {})
                        || !demo.admin().awaitNodes(DemoRun.TO, limit, () -> {}))
                    throw new IllegalStateException("update did not complete");
                Thread.sleep(15_000); // the last status writes settle
                System.out.printf(
                        "installed %s and updated to %s on %d nodes; now level for %.1f minutes%n",
                        DemoRun.FROM, DemoRun.TO, masters + workers, minutes);
                RequestLog log = demo.cluster().server().requests();
                int mark = log.size();
                long passes = demo.cluster().controller().passes();
                Thread.sleep((long) (minutes * 60_000));
                System.out.printf(
                        "cluster-version controller: %d Reconciling passes in the time%n",
                        demo.cluster().controller().passes() - passes);
                List<RequestLog.Request> idle = log.matching(r -> true).subList(mark, log.size());
                Set<String> controllers =
                        Set.of(
                                DemoController.USER_AGENT,
                                DemoNodes.POOLS,
                                DemoNodes.AGENTS,
                                OPERATOR,
                                LEASE);
                Map<String, Integer> byController = new TreeMap<>();
                controllers.forEach(c -> byController.put(c, 0));
                int counted = 0;
                int renewals = 0;
                for (RequestLog.Request r : idle) {
                    if (!controllers.contains(r.userAgent()) || r.isWatch()) continue;
                    if (r.isLease()) {
                        if (r.isWrite()) renewals++;
                        continue; // a renewal reads the Lease and writes it back
                    }
                    byController.merge(r.userAgent(), 1, Integer::sum);
                    counted++;
                    System.out.println("  " + r);
                }
                byController.forEach((c, n) -> System.out.printf("%s: %d requests%n", c, n));
                System.out.printf(
                        "idle requests per minute: %s (lease renewals per minute: %s)%n",
                        perMinute(counted, minutes), perMinute(renewals, minutes));
                if (status[0] != null) status[0].close();
            }
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    private static String perMinute(int n, double minutes) {
        double v = n / minutes;
        return v == Math.rint(v) ? String.valueOf((long) v) : String.format("%.1f", v);
    }
}
