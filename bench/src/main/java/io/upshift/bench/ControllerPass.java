package io.upshift.bench;

import io.upshift.demo.DemoController;
import io.upshift.demo.DemoRun;
import io.upshift.testkit.MockServerLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * The cluster-version controller on the embedded API server with a large payload and instantly
 * levelling operators: time of a full Updating pass, and the writes and API requests of
 * steady-state Reconciling passes. Usage: {@code ControllerPass [COMPONENTS]} (each component is a
 * Namespace, a Deployment and a ClusterOperator).
 */
public final class ControllerPass {

    public static void main(String[] args) throws Exception {
        int components = args.length > 0 ? Integer.parseInt(args[0]) : 330;
        MockServerLog.quiet();
        Path work = Files.createTempDirectory("upshift-bench-pass-");
        try (DemoRun demo =
                new DemoRun(new DemoRun.Settings(components, 10, Duration.ZERO, 1, work), l -> {})
                        .start()) {
            long t0 = System.nanoTime();
            awaitCompleted(demo, DemoRun.FROM);
            System.out.printf("manifests: %d%n", 3 * components + 6);
            System.out.printf("install (Initializing): %.2f s%n", (System.nanoTime() - t0) / 1e9);
            int r0 = demo.cluster().server().requests().size();
            demo.requestUpdate();
            long t1 = System.nanoTime();
            awaitCompleted(demo, DemoRun.TO);
            System.out.printf(
                    "update (Updating, including the controller's own replacement): %.2f s%n",
                    (System.nanoTime() - t1) / 1e9);
            System.out.printf(
                    "requests during the update: %d%n",
                    demo.cluster().server().requests().size() - r0);
            // steady state: Reconciling passes (one every 10-20 s in the demo's settings), counted
            // by the controller's own requests
            Thread.sleep(12_000);
            long writes = demo.cluster().controller().writes();
            int requests =
                    demo.cluster()
                            .server()
                            .requests()
                            .matching(
                                    r ->
                                            r.userAgent().equals(DemoController.USER_AGENT)
                                                    && !r.isWatch())
                            .size();
            Thread.sleep(30_000);
            int after =
                    demo.cluster()
                            .server()
                            .requests()
                            .matching(
                                    r ->
                                            r.userAgent().equals(DemoController.USER_AGENT)
                                                    && !r.isWatch())
                            .size();
            System.out.printf(
                    "steady state, 30 s (Reconciling passes every 10-20 s): %d controller writes,"
                            + " %d controller requests other than watches%n",
                    demo.cluster().controller().writes() - writes, after - requests);
        }
    }

    /**
     * Polls every 20 ms, so that the times measured are within that of the moment history shows the
     * release Completed.
     */
    private static void awaitCompleted(DemoRun demo, String version) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(10).toNanos();
        while (!demo.admin().completed(version)) {
            if (System.nanoTime() > deadline)
                throw new IllegalStateException(version + " did not complete in 10 minutes");
            Thread.sleep(20);
        }
    }
}
