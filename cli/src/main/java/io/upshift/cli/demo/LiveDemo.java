package io.upshift.cli.demo;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.base.conditions.Conditions;
import io.upshift.cli.Demo;
import io.upshift.cli.DemoOptions;
import io.upshift.demo.ConfigChange;
import io.upshift.demo.DemoRehearsal;
import io.upshift.demo.DemoRun;
import io.upshift.rehearsal.model.Rehearsal;
import io.upshift.rehearsal.render.TextReport;
import io.upshift.releases.image.FileTrees;
import io.upshift.runtime.cli.ControllerLogs;
import io.upshift.status.estimate.EstimateRecord;
import io.upshift.status.estimate.UpdateEnd;
import io.upshift.status.model.UpdateAssessment;
import io.upshift.status.reader.ClusterReader;
import io.upshift.status.render.Details;
import io.upshift.status.render.StatusRenderer;
import io.upshift.testkit.MockServerLog;
import java.io.Console;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Optional;
import java.util.Random;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * {@code upshift demo} itself (its options are {@link io.upshift.cli.DemoCommand}'s): the demo on
 * the testkit's embedded API server, shown live as {@code upshift status} shows an update. Test
 * code: this package is packed in {@code demo-lib/}, not in Upshift's jar.
 */
public final class LiveDemo implements Demo {

    /**
     * Counted down once the demo is closed and its files deleted, for a shutdown hook waiting on
     * it.
     */
    private CountDownLatch demoStopped;

    /** Nodes the demo runs: none with a real payload. */
    private int nodes;

    /** What the demo was asked to do (an instance runs once). */
    private DemoOptions options;

    /**
     * Upshift's estimates of the update's end, as the live view showed them; null outside the
     * update.
     */
    private volatile EstimateRecord estimateRecord;

    @Override
    public int run(DemoOptions options, PrintWriter out) throws Exception {
        this.options = options;
        MockServerLog.quiet();
        // the controllers' and agents' log lines would tear up the status view; their warnings show
        // in status anyway
        if (!options.controllerLog()) ControllerLogs.errorsOnly();
        boolean refresh = !options.plain() && onTerminal();
        Path work = Files.createTempDirectory("upshift-demo-");
        Heartbeat beat = new Heartbeat(out, Duration.ofSeconds(8));
        try {
            DemoRun.Settings settings =
                    new DemoRun.Settings(
                                    options.operators(),
                                    options.runLevels(),
                                    options.rollout(),
                                    options.seed(),
                                    work,
                                    options.masters(),
                                    options.workers())
                            .withPayload(options.payload())
                            .withSelfHosting(options.selfHosting().orElse(null));
            DemoRun demo = new DemoRun(settings, line -> beat.println("  " + line));
            if (options.payload() == null) {
                nodes = options.masters() + options.workers();
                beat.println(
                        "Building and signing releases "
                                + demo.from()
                                + " and "
                                + demo.to()
                                + " ("
                                + options.operators()
                                + " operators over "
                                + options.runLevels()
                                + " run-levels"
                                + (nodes > 0
                                        ? ", and machine-config for "
                                                + options.masters()
                                                + " control-plane and "
                                                + options.workers()
                                                + " worker nodes"
                                        : "")
                                + ") in "
                                + work);
            } else {
                beat.println(
                        "Building and signing releases "
                                + demo.from()
                                + " and "
                                + demo.to()
                                + " from the payload "
                                + options.payload()
                                + " (every ClusterOperator it declares simulated; no nodes) in "
                                + work);
            }
            beat.step(() -> "building the releases");
            return run(out, beat, refresh, demo, work);
        } finally {
            beat.close();
            if (options.keepWorkDir()) {
                out.println(
                        "Kept " + work + " (releases, signatures, the simulated hosts' files).");
            } else {
                FileTrees.deleteQuietly(work);
            }
            out.flush();
            if (demoStopped != null) demoStopped.countDown();
        }
    }

    private int run(PrintWriter out, Heartbeat beat, boolean refresh, DemoRun started, Path work)
            throws Exception {
        Duration timeout = options.timeout();
        try (DemoRun demo = started.start()) {
            beat.println(
                    "Embedded API server at "
                            + demo.cluster().client().getMasterUrl()
                            + "; installing "
                            + demo.from()
                            + " ...");
            if (options.kubeconfigOut() != null) {
                Files.writeString(options.kubeconfigOut(), demo.cluster().server().kubeconfig());
                out.println(
                        "Kubeconfig for it: "
                                + options.kubeconfigOut()
                                + " (e.g. kubectl --kubeconfig "
                                + options.kubeconfigOut()
                                + " get clusterversion)");
            }
            beat.step(() -> "installing " + demo.from() + ": " + progress(demo));
            Instant installStart = Instant.now();
            if (!demo.admin().await(demo.from(), timeout, () -> {})
                    || !demo.admin().awaitNodes(demo.from(), timeout, () -> {})) {
                throw new IllegalStateException(
                        "install of " + demo.from() + " did not complete in " + timeout);
            }
            beat.println(
                    String.format(
                            "Installed %s in %.1f s%s.%s%n",
                            demo.from(),
                            seconds(installStart),
                            nodes > 0 ? ", all " + nodes + " nodes on it" : "",
                            options.rehearse()
                                    ? ""
                                    : " Requesting the update to " + demo.to() + "."));
            beat.close(); // from here the status view shows every change
            Rehearsal rehearsal = null;
            if (options.rehearse()) {
                out.println("Rehearsing the update first (read only) ...");
                out.flush();
                rehearsal =
                        DemoRehearsal.run(
                                demo,
                                options.rollout(),
                                work.resolve("rehearsal"),
                                line -> {
                                    out.println("  " + line);
                                    out.flush();
                                });
                out.println();
                out.print(TextReport.render(rehearsal));
                out.println();
                out.println("Requesting the update to " + demo.to() + ".");
                out.flush();
            }
            demo.requestUpdate();
            Instant start = Instant.now();
            EstimateRecord record = new EstimateRecord(start);
            estimateRecord = record;
            double killEvery = options.killEverySeconds();
            Random random = new Random(options.seed());
            long[] nextKill = {
                killEvery > 0
                        ? System.nanoTime() + (long) (random.nextDouble() * 2 * killEvery * 1e9)
                        : Long.MAX_VALUE
            };
            int[] kills = {0};
            boolean done =
                    demo.admin()
                            .await(
                                    demo.to(),
                                    timeout,
                                    () -> {
                                        if (System.nanoTime() > nextKill[0]) {
                                            demo.cluster().controller().restart();
                                            kills[0]++;
                                            nextKill[0] =
                                                    System.nanoTime()
                                                            + (long)
                                                                    (random.nextDouble()
                                                                            * 2
                                                                            * killEvery
                                                                            * 1e9);
                                            out.println(
                                                    ">>> killed the controller (kill "
                                                            + kills[0]
                                                            + "); a new one resumes from cluster"
                                                            + " state");
                                        }
                                        show(out, demo, refresh);
                                    });
            if (!done) {
                show(out, demo, refresh);
                throw new IllegalStateException(
                        "the update to " + demo.to() + " did not complete in " + timeout);
            }
            double controlPlane = seconds(start);
            Instant controlPlaneEnd = Instant.now();
            boolean nodesDone =
                    demo.admin().awaitNodes(demo.to(), timeout, () -> show(out, demo, refresh));
            estimateRecord = null;
            show(out, demo, refresh);
            if (!nodesDone)
                throw new IllegalStateException(
                        "the nodes did not all reach " + demo.to() + " in " + timeout);
            String path =
                    demo.realPayload()
                            ? ""
                            : String.format(
                                    "; the simulated work's critical path is %.1f s",
                                    demo.criticalPath().toMillis() / 1000.0);
            out.printf(
                    "%nUpdated %s -> %s in %.1f s%s. Controller restarts: %d (%d deliberate"
                            + " kills).%n",
                    demo.from(),
                    demo.to(),
                    controlPlane,
                    path,
                    demo.cluster().controller().restarts(),
                    kills[0]);
            if (nodes > 0)
                out.printf("All %d nodes run %s after %.1f s.%n", nodes, demo.to(), seconds(start));
            // the end as the cluster recorded it: the last node Done (the agents' annotation), else
            // the control plane
            out.println(record.line(demo.admin().lastNodeDone().orElse(controlPlaneEnd)));
            out.flush();
            if (options.configChange()) {
                out.printf(
                        "%nChanging %s on every node, under a node disruption policy of None for it"
                                + " ...%n",
                        ConfigChange.PATH);
                out.flush();
                ConfigChange.Result changed =
                        demo.configChange(timeout, () -> show(out, demo, refresh));
                show(out, demo, refresh);
                out.println(changed.line());
                out.flush();
            }
            if (options.canary()) {
                out.printf("%nA canary and a health gate on the worker pool ...%n");
                out.flush();
                demo.canary(
                        timeout,
                        line -> {
                            out.println("canary: " + line);
                            out.flush();
                        },
                        () -> show(out, demo, refresh));
                show(out, demo, refresh);
            }
            if (rehearsal != null) {
                Instant end = demo.admin().lastNodeDone().orElse(controlPlaneEnd);
                out.println(rehearsalLine(rehearsal, Duration.between(start, end)));
                out.flush();
            }
            if (options.keepRunning()) keepRunning(out, demo);
        }
        return 0;
    }

    /**
     * Blocks until the JVM is asked to stop (or this thread is interrupted); the caller then closes
     * the demo before the JVM exits.
     */
    private void keepRunning(PrintWriter out, DemoRun demo) {
        String kubeconfig =
                options.kubeconfigOut() == null
                        ? "FILE (give --kubeconfig-out FILE)"
                        : options.kubeconfigOut().toString();
        out.println();
        out.println(
                "The cluster keeps running at "
                        + demo.cluster().client().getMasterUrl()
                        + ". Point any client at it:");
        out.println("  kubectl --kubeconfig " + kubeconfig + " get clusterversion");
        out.println("  ./upshift status --kubeconfig " + kubeconfig);
        out.println("  ./upshift upgrade --kubeconfig " + kubeconfig);
        out.println(
                "  OC_ENABLE_CMD_UPGRADE_STATUS=true oc --kubeconfig "
                        + kubeconfig
                        + " adm upgrade status");
        out.println("Press Ctrl+C to stop it.");
        out.flush();
        CountDownLatch stop = new CountDownLatch(1);
        CountDownLatch stopped = new CountDownLatch(1);
        Thread hook =
                new Thread(
                        () -> {
                            stop.countDown();
                            try {
                                stopped.await(
                                        30,
                                        TimeUnit.SECONDS); // the caller closes the demo and deletes
                                // its files
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "demo-stop");
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

    /** {@code rehearsal: predicted <p> s, took <t> s}, or that the rehearsal predicted no end. */
    static String rehearsalLine(Rehearsal r, Duration took) {
        Duration p = r.timeline().end();
        return String.format(
                Locale.ROOT,
                "rehearsal: predicted %s, took %.1f s",
                p == null
                        ? "no end (it stalls)"
                        : String.format(Locale.ROOT, "%.1f s", p.toMillis() / 1000.0),
                took.toMillis() / 1000.0);
    }

    private static double seconds(Instant since) {
        return Duration.between(since, Instant.now()).toMillis() / 1000.0;
    }

    /** Where an install stands, in a few words: the cluster version's progress, the nodes on it. */
    private static String progress(DemoRun demo) {
        ClusterVersion cv = demo.admin().clusterVersion();
        ClusterOperatorStatusCondition p =
                cv == null || cv.getStatus() == null
                        ? null
                        : Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        return (p == null ? "the controller is starting" : p.getMessage())
                + pools(demo).replace("\n", "; ").replace("MachineConfigPool ", "pool ");
    }

    /**
     * A line per pool: how many of its nodes run its target config (status shows none once the
     * control plane is done).
     */
    private static String pools(DemoRun demo) {
        StringBuilder out = new StringBuilder();
        for (MachineConfigPool pool :
                demo.cluster().client().resources(MachineConfigPool.class).list().getItems()) {
            var s = pool.getStatus();
            if (s == null || s.getMachineCount() == null) continue;
            out.append(
                    String.format(
                            "%nMachineConfigPool %s: %d of %d nodes updated, %d unavailable",
                            pool.getMetadata().getName(),
                            s.getUpdatedMachineCount(),
                            s.getMachineCount(),
                            s.getUnavailableMachineCount()));
        }
        return out.toString();
    }

    /**
     * The update as `upshift status` shows it (with the estimates asked for), or the Progressing
     * message when that view is not available; during the update, Upshift's estimate of its end is
     * recorded.
     */
    private void show(PrintWriter out, DemoRun demo, boolean refresh) {
        String text;
        ClusterVersion cv = demo.admin().clusterVersion();
        ClusterOperatorStatusCondition p =
                cv == null || cv.getStatus() == null
                        ? null
                        : Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        String progressing =
                (p == null
                                ? "(no status yet)"
                                : "ClusterVersion Progressing="
                                        + p.getStatus()
                                        + ": "
                                        + p.getMessage())
                        + pools(demo);
        try {
            Instant now = Instant.now();
            UpdateStatusStatus status =
                    UpdateAssessment.assess(
                            new ClusterReader(demo.cluster().client()).read(Optional.empty()),
                            now,
                            now);
            EstimateRecord record = estimateRecord;
            if (record != null) record.add(now, UpdateEnd.of(status));
            text =
                    StatusRenderer.render(status, now, Details.none, options.estimates())
                            + "\n"
                            + progressing
                            + "\n";
        } catch (RuntimeException e) {
            text = progressing + "\n";
        }
        if (refresh) out.print("\033[H\033[2J");
        out.print(text);
        if (!refresh) out.println("----");
        out.flush();
    }

    /**
     * Whether standard output is a terminal: from Java 22 on, System.console() is not null when it
     * is not, and Console.isTerminal() (22) tells.
     */
    @SuppressWarnings(
            "SystemConsoleNull") // null still means no terminal; isTerminal() is asked too
    private static boolean onTerminal() {
        Console console = System.console();
        if (console == null) return false;
        try {
            return (Boolean) Console.class.getMethod("isTerminal").invoke(console);
        } catch (ReflectiveOperationException beforeJava22) {
            return true; // before 22 there is a console only on a terminal
        }
    }
}
