package io.upshift.cli;

import io.upshift.core.conditions.Conditions;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.demo.ConfigChange;
import io.upshift.demo.DemoRun;
import io.upshift.testkit.MockServerLog;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.core.estimate.EstimateRecord;
import io.upshift.core.estimate.UpdateEnd;
import io.upshift.core.render.Details;
import io.upshift.core.render.EstimateSource;
import io.upshift.core.render.StatusRenderer;
import io.upshift.core.status.UpdateAssessment;
import io.upshift.operator.cluster.ClusterReader;
import io.upshift.release.image.FileTrees;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code upshift demo}: the whole system on an embedded simulated cluster, installing one release and updating to the next. */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Run Upshift on an embedded API server with a simulated cluster: build and sign two releases,",
                "install the first, update to the second with the real cluster-version controller, and show the update live."})
public final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--operators", defaultValue = "30", description = "Simulated ClusterOperators (default: ${DEFAULT-VALUE}).")
    int operators;

    @Option(names = "--run-levels", defaultValue = "10", description = "Run-levels they are spread over (default: ${DEFAULT-VALUE}).")
    int runLevels;

    @Option(names = "--rollout-seconds", defaultValue = "2", description = "Mean time a simulated Deployment takes to roll out (default: ${DEFAULT-VALUE}).")
    double rolloutSeconds;

    @Option(names = "--masters", defaultValue = "3", description = "Control-plane nodes (default: ${DEFAULT-VALUE}).")
    int masters;

    @Option(names = "--workers", defaultValue = "6", description = "Worker nodes (default: ${DEFAULT-VALUE}; with --masters 0 too, the demo has no nodes and no pools).")
    int workers;

    @Option(names = "--kill-controller-every", paramLabel = "SECONDS", defaultValue = "0",
            description = "Kill and restart the controller at random moments, on average this often (0: never).")
    double killEvery;

    @Option(names = "--seed", defaultValue = "1", description = "Seed of the simulation's randomness.")
    long seed;

    @Option(names = "--timeout", defaultValue = "PT5M", description = "Give up after this long (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(names = "--estimate", paramLabel = "WHOSE", defaultValue = "upshift",
            description = "Whose estimates the live view shows, as upshift status --estimate: upshift (default) or oc.")
    String estimate;

    @Option(names = "--plain", description = "Print status snapshots one after another instead of refreshing the screen.")
    boolean plain;

    @Option(names = "--keep-work-dir", description = "Keep the releases, signatures and simulated hosts' files (default: deleted at the end).")
    boolean keepWorkDir;

    @Mixin
    VerboseOption verbose;

    @Option(names = "--payload", paramLabel = "DIR",
            description = "Install and update a real payload directory (manifests/, release-manifests/; e.g. an OpenShift release's) instead of "
                    + "the simulated components: its version, then its next patch; every ClusterOperator it declares is simulated, and there are no nodes.")
    Path payload;

    @Option(names = "--in-process-controller",
            description = "Keep every controller in this JVM: releases hold only their payload (the default when not run from Upshift's jar, "
                    + "and with --kill-controller-every or --payload). Otherwise the releases are built on Upshift's image and the controller that "
                    + "takes over mid-update is the new release's own code, run from its image as its Deployment says.")
    boolean inProcess;

    @Option(names = "--controller-log", description = "Also print the controllers' log lines (on stderr).")
    boolean controllerLog;

    @Option(names = "--kubeconfig-out", paramLabel = "FILE",
            description = "Write a kubeconfig for the embedded API server to FILE as soon as it runs, for kubectl, oc and upshift.")
    Path kubeconfigOut;

    @Option(names = "--keep-running", description = "After the update, keep the cluster and its controllers running until interrupted (Ctrl+C).")
    boolean keepRunning;

    @Option(names = "--config-change", description = "After the update, change a file on every node under a node disruption policy that needs "
            + "no reboot (None for " + ConfigChange.PATH + " in the MachineConfiguration), roll it out, and count what the nodes went through.")
    boolean configChange;

    /** Counted down once the demo is closed and its files deleted, for a shutdown hook waiting on it. */
    private java.util.concurrent.CountDownLatch demoStopped;

    /** Nodes the demo runs: none with a real payload. */
    private int nodes;

    private EstimateSource estimates;
    /** Upshift's estimates of the update's end, as the live view showed them; null outside the update. */
    private volatile EstimateRecord estimateRecord;

    @Override
    public Integer call() throws Exception {
        if (masters < 0 || workers < 0) throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--masters and --workers cannot be negative");
        if (masters == 0 && workers > 0) throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "worker nodes need a control plane: give --masters at least 1, or --workers 0 too");
        if (configChange && (payload != null || masters + workers == 0)) throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                "--config-change needs nodes: it cannot be given with --payload or with --masters 0 --workers 0");
        estimates = EstimateSource.parse(estimate);
        MockServerLog.quiet();
        // the controllers' and agents' log lines would tear up the status view; their warnings show in status anyway
        if (!controllerLog) System.setProperty("org.slf4j.simpleLogger.log.io.upshift.operator", "error");
        PrintWriter out = spec.commandLine().getOut();
        boolean refresh = !plain && System.console() != null;
        Path work = Files.createTempDirectory("upshift-demo-");
        try {
            DemoRun demo = new DemoRun(new DemoRun.Settings(operators, runLevels, Duration.ofMillis((long) (rolloutSeconds * 1000)), seed, work,
                    masters, workers, payload), line -> { out.println("  " + line); out.flush(); });
            // a controller killed at random would hold its Lease for 137 s, as upstream's: random kills stay in this JVM;
            // a real payload's controller Deployment is its own (OpenShift's operator), which Upshift's image does not run
            if (!inProcess && killEvery == 0 && payload == null) Upshift.ownJar().ifPresent(demo::selfHosting);
            if (payload == null) {
                nodes = masters + workers;
                out.println("Building and signing releases " + demo.from() + " and " + demo.to() + " (" + operators + " operators over " + runLevels
                        + " run-levels" + (nodes > 0 ? ", and machine-config for " + masters + " control-plane and " + workers + " worker nodes" : "")
                        + ") in " + work);
            } else {
                out.println("Building and signing releases " + demo.from() + " and " + demo.to() + " from the payload " + payload
                        + " (every ClusterOperator it declares simulated; no nodes) in " + work);
            }
            out.flush();
            return run(out, refresh, demo);
        } finally {
            if (keepWorkDir) {
                out.println("Kept " + work + " (releases, signatures, the simulated hosts' files).");
            } else {
                FileTrees.deleteQuietly(work);
            }
            out.flush();
            if (demoStopped != null) demoStopped.countDown();
        }
    }

    private int run(PrintWriter out, boolean refresh, DemoRun started) throws Exception {
        try (DemoRun demo = started.start()) {
            out.println("Embedded API server at " + demo.client().getMasterUrl() + "; installing " + demo.from() + " ...");
            if (kubeconfigOut != null) {
                Files.writeString(kubeconfigOut, demo.server().kubeconfig());
                out.println("Kubeconfig for it: " + kubeconfigOut + " (e.g. kubectl --kubeconfig " + kubeconfigOut + " get clusterversion)");
            }
            out.flush();
            Instant installStart = Instant.now();
            if (!demo.await(demo.from(), timeout, () -> { }) || !demo.awaitNodes(demo.from(), timeout, () -> { })) {
                throw new IllegalStateException("install of " + demo.from() + " did not complete in " + timeout);
            }
            out.printf("Installed %s in %.1f s%s. Requesting the update to %s.%n%n", demo.from(), seconds(installStart),
                    nodes > 0 ? ", all " + nodes + " nodes on it" : "", demo.to());
            out.flush();
            demo.requestUpdate();
            Instant start = Instant.now();
            EstimateRecord record = new EstimateRecord(start);
            estimateRecord = record;
            Random random = new Random(seed);
            long[] nextKill = {killEvery > 0 ? System.nanoTime() + (long) (random.nextDouble() * 2 * killEvery * 1e9) : Long.MAX_VALUE};
            int[] kills = {0};
            boolean done = demo.await(demo.to(), timeout, () -> {
                if (System.nanoTime() > nextKill[0]) {
                    demo.restartController();
                    kills[0]++;
                    nextKill[0] = System.nanoTime() + (long) (random.nextDouble() * 2 * killEvery * 1e9);
                    out.println(">>> killed the controller (kill " + kills[0] + "); a new one resumes from cluster state");
                }
                show(out, demo, refresh);
            });
            if (!done) {
                show(out, demo, refresh);
                throw new IllegalStateException("the update to " + demo.to() + " did not complete in " + timeout);
            }
            double controlPlane = seconds(start);
            Instant controlPlaneEnd = Instant.now();
            boolean nodesDone = demo.awaitNodes(demo.to(), timeout, () -> show(out, demo, refresh));
            estimateRecord = null;
            show(out, demo, refresh);
            if (!nodesDone) throw new IllegalStateException("the nodes did not all reach " + demo.to() + " in " + timeout);
            String path = demo.realPayload() ? "" : String.format("; the simulated work's critical path is %.1f s", demo.criticalPath().toMillis() / 1000.0);
            out.printf("%nUpdated %s -> %s in %.1f s%s. Controller restarts: %d (%d deliberate kills).%n",
                    demo.from(), demo.to(), controlPlane, path, demo.restarts(), kills[0]);
            if (nodes > 0) out.printf("All %d nodes run %s after %.1f s.%n", nodes, demo.to(), seconds(start));
            // the end as the cluster recorded it: the last node Done (the agents' annotation), else the control plane
            out.println(record.line(demo.lastNodeDone().orElse(controlPlaneEnd)));
            out.flush();
            if (configChange) {
                out.printf("%nChanging %s on every node, under a node disruption policy of None for it ...%n", ConfigChange.PATH);
                out.flush();
                ConfigChange.Result changed = demo.configChange(timeout, () -> show(out, demo, refresh));
                show(out, demo, refresh);
                out.println(changed.line());
                out.flush();
            }
            if (keepRunning) keepRunning(out, demo);
        }
        return 0;
    }

    /**
     * Blocks until the JVM is asked to stop (or this thread is interrupted); the caller then closes the demo before the
     * JVM exits.
     */
    private void keepRunning(PrintWriter out, DemoRun demo) {
        String kubeconfig = kubeconfigOut == null ? "FILE (give --kubeconfig-out FILE)" : kubeconfigOut.toString();
        out.println();
        out.println("The cluster keeps running at " + demo.client().getMasterUrl() + ". Point any client at it:");
        out.println("  kubectl --kubeconfig " + kubeconfig + " get clusterversion");
        out.println("  ./upshift status --kubeconfig " + kubeconfig);
        out.println("  ./upshift upgrade --kubeconfig " + kubeconfig);
        out.println("  OC_ENABLE_CMD_UPGRADE_STATUS=true oc --kubeconfig " + kubeconfig + " adm upgrade status");
        out.println("Press Ctrl+C to stop it.");
        out.flush();
        java.util.concurrent.CountDownLatch stop = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch stopped = new java.util.concurrent.CountDownLatch(1);
        Thread hook = new Thread(() -> {
            stop.countDown();
            try {
                stopped.await(30, java.util.concurrent.TimeUnit.SECONDS); // the caller closes the demo and deletes its files
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "demo-stop");
        Runtime.getRuntime().addShutdownHook(hook);
        demoStopped = stopped;
        try {
            stop.await();
        } catch (InterruptedException e) {
            Runtime.getRuntime().removeShutdownHook(hook);
        }
        out.println("Stopping the cluster.");
        out.flush();
    }

    private static double seconds(Instant since) {
        return Duration.between(since, Instant.now()).toMillis() / 1000.0;
    }

    /** A line per pool: how many of its nodes run its target config (status shows none once the control plane is done). */
    private static String pools(DemoRun demo) {
        StringBuilder out = new StringBuilder();
        for (MachineConfigPool pool : demo.client().resources(MachineConfigPool.class).list().getItems()) {
            var s = pool.getStatus();
            if (s == null || s.getMachineCount() == null) continue;
            out.append(String.format("%nMachineConfigPool %s: %d of %d nodes updated, %d unavailable", pool.getMetadata().getName(),
                    s.getUpdatedMachineCount(), s.getMachineCount(), s.getUnavailableMachineCount()));
        }
        return out.toString();
    }

    /**
     * The update as `upshift status` shows it (with the estimates asked for), or the Progressing message when that view
     * is not available; during the update, Upshift's estimate of its end is recorded.
     */
    private void show(PrintWriter out, DemoRun demo, boolean refresh) {
        String text;
        ClusterVersion cv = demo.clusterVersion();
        ClusterOperatorStatusCondition p = cv == null || cv.getStatus() == null ? null : Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        String progressing = (p == null ? "(no status yet)" : "ClusterVersion Progressing=" + p.getStatus() + ": " + p.getMessage()) + pools(demo);
        try {
            Instant now = Instant.now();
            UpdateStatusStatus status = UpdateAssessment.assess(new ClusterReader(demo.client()).read(Optional.empty()), now, now);
            EstimateRecord record = estimateRecord;
            if (record != null) record.add(now, UpdateEnd.of(status));
            text = StatusRenderer.render(status, now, Details.none, estimates) + "\n" + progressing + "\n";
        } catch (RuntimeException e) {
            text = progressing + "\n";
        }
        if (refresh) out.print("\033[H\033[2J");
        out.print(text);
        if (!refresh) out.println("----");
        out.flush();
    }
}
