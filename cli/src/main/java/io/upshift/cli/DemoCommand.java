package io.upshift.cli;

import io.upshift.demo.ConfigChange;
import io.upshift.runtime.cli.VerboseOption;
import io.upshift.status.render.EstimateSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code upshift demo}: the whole system on an embedded simulated cluster, installing one release
 * and updating to the next. This class holds the command's options; the demo itself is test code,
 * loaded only when the command runs ({@link DemoClasses}), so that this class loads, and {@code
 * upshift demo --help} works, where the demo is absent (Upshift's image).
 */
@Command(
        name = "demo",
        mixinStandardHelpOptions = true,
        description = {
            "Run the whole system on an embedded, simulated cluster.",
            "Builds Upshift's image and two signed releases on it, installs the first, updates to"
                    + " the second with the real cluster-version controller, pool controller and"
                    + " node agents, and shows the update live."
        })
public final class DemoCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    @Option(
            names = "--operators",
            defaultValue = "30",
            description = "Simulated ClusterOperators (default: ${DEFAULT-VALUE}).")
    int operators;

    @Option(
            names = "--run-levels",
            defaultValue = "10",
            description = "Run-levels they are spread over (default: ${DEFAULT-VALUE}).")
    int runLevels;

    @Option(
            names = "--rollout-seconds",
            defaultValue = "2",
            description =
                    "Mean time a simulated Deployment takes to roll out (default:"
                            + " ${DEFAULT-VALUE}).")
    double rolloutSeconds;

    @Option(
            names = "--masters",
            defaultValue = "3",
            description = "Control-plane nodes (default: ${DEFAULT-VALUE}).")
    int masters;

    @Option(
            names = "--workers",
            defaultValue = "6",
            description =
                    "Worker nodes (default: ${DEFAULT-VALUE}; with --masters 0 too, the demo has no"
                            + " nodes and no pools).")
    int workers;

    @Option(
            names = "--kill-controller-every",
            paramLabel = "SECONDS",
            defaultValue = "0",
            description =
                    "Kill and restart the controller at random moments, on average this often (0:"
                            + " never).")
    double killEvery;

    @Option(
            names = "--seed",
            defaultValue = "1",
            description = "Seed of the simulation's randomness.")
    long seed;

    @Option(
            names = "--timeout",
            defaultValue = "PT5M",
            description = "Give up after this long (default: ${DEFAULT-VALUE}).")
    Duration timeout;

    @Option(
            names = "--estimate",
            paramLabel = "WHOSE",
            defaultValue = "upshift",
            description =
                    "Whose estimates the live view shows, as upshift status --estimate: upshift"
                            + " (default) or oc.")
    String estimate;

    @Option(
            names = "--plain",
            description =
                    "Print status snapshots one after another instead of refreshing the screen.")
    boolean plain;

    @Option(
            names = "--keep-work-dir",
            description =
                    "Keep the releases, signatures and simulated hosts' files (default: deleted at"
                            + " the end).")
    boolean keepWorkDir;

    @Mixin VerboseOption verbose;

    @Option(
            names = "--payload",
            paramLabel = "DIR",
            description =
                    "Install and update a real payload directory (manifests/, release-manifests/;"
                        + " e.g. an OpenShift release's) instead of the simulated components: its"
                        + " version, then its next patch; every ClusterOperator it declares is"
                        + " simulated, and there are no nodes.")
    Path payload;

    @Option(
            names = "--in-process-controller",
            description =
                    "Keep every controller in this JVM: releases hold only their payload (the"
                        + " default when not run from Upshift's jar, and with"
                        + " --kill-controller-every or --payload). Otherwise the releases are built"
                        + " on Upshift's image and the controller that takes over mid-update is the"
                        + " new release's own code, run from its image as its Deployment says.")
    boolean inProcess;

    @Option(
            names = "--controller-log",
            description = "Also print the controllers' log lines (on stderr).")
    boolean controllerLog;

    @Option(
            names = "--kubeconfig-out",
            paramLabel = "FILE",
            description =
                    "Write a kubeconfig for the embedded API server to FILE as soon as it runs, for"
                            + " kubectl, oc and upshift.")
    Path kubeconfigOut;

    @Option(
            names = "--keep-running",
            description =
                    "After the update, keep the cluster and its controllers running until"
                            + " interrupted (Ctrl+C).")
    boolean keepRunning;

    // ConfigChange.PATH is a constant: the compiler copies it here, and no class of the demo is
    // loaded for it
    @Option(
            names = "--config-change",
            description =
                    "After the update, change a file on every node under a node disruption policy"
                            + " that needs no reboot (None for "
                            + ConfigChange.PATH
                            + " in the MachineConfiguration), roll it out, and count what the nodes"
                            + " went through.")
    boolean configChange;

    @Option(
            names = "--rehearse",
            description =
                    "Before asking for the update, rehearse it as upshift rehearse would (read"
                        + " only, the real controllers on an embedded copy of the cluster); at the"
                        + " end, compare the predicted time with the time it took.")
    boolean rehearse;

    @Option(
            names = "--canary",
            description =
                    "After the update, show a canary and a health gate live on the worker pool: one"
                        + " canary node takes a new file first; while it soaks, a pod the pool's"
                        + " gate (app=backup) matches starts, and the pool pauses itself; the"
                        + " canary is taken back to the previous config, then the change rolls out"
                        + " to every worker. Needs at least 2 workers.")
    boolean canary;

    @Override
    public Integer call() throws Exception {
        if (masters < 0 || workers < 0)
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--masters and --workers cannot be negative");
        if (masters == 0 && workers > 0)
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "worker nodes need a control plane: give --masters at least 1, or --workers 0"
                            + " too");
        if (rehearse && payload != null)
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(), "--rehearse cannot be given with --payload");
        if (configChange && (payload != null || masters + workers == 0))
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "--config-change needs nodes: it cannot be given with --payload or with"
                            + " --masters 0 --workers 0");
        if (canary && (payload != null || workers < 2))
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "--canary needs a worker pool of at least 2 nodes (a canary and one to go back"
                            + " to): give --workers 2 or more, and no --payload");
        EstimateSource estimates = EstimateSource.parse(estimate);
        if (!DemoClasses.present()) {
            // run from Upshift's jar: the demo is in demo-lib/ beside it
            return DemoClasses.runWithDemoLib(
                    Upshift.ownJar(),
                    spec.root()
                            .commandLine()
                            .getParseResult()
                            .originalArgs()
                            .toArray(String[]::new));
        }
        // a controller killed at random would hold its Lease for 137 s, as upstream's: random kills
        // stay in this JVM;
        // a real payload's controller Deployment is its own (OpenShift's operator), which Upshift's
        // image does not run
        Optional<Path> selfHosting =
                !inProcess && killEvery == 0 && payload == null
                        ? Upshift.ownJar()
                        : Optional.empty();
        return DemoClasses.demo()
                .run(
                        new DemoOptions(
                                operators,
                                runLevels,
                                Duration.ofMillis((long) (rolloutSeconds * 1000)),
                                masters,
                                workers,
                                killEvery,
                                seed,
                                timeout,
                                estimates,
                                plain,
                                keepWorkDir,
                                payload,
                                selfHosting,
                                controllerLog,
                                kubeconfigOut,
                                keepRunning,
                                configChange,
                                rehearse,
                                canary),
                        spec.commandLine().getOut());
    }
}
