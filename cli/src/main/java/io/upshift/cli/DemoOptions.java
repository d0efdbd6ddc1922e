package io.upshift.cli;

import io.upshift.status.render.EstimateSource;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * What {@code upshift demo} was asked to do, checked, as {@link DemoCommand} hands it to the demo's
 * code ({@link Demo}).
 *
 * @param rollout mean time a simulated Deployment takes to roll out
 * @param killEverySeconds kill and restart the controller on average this often (0: never)
 * @param payload a real payload directory to install and update, or null for the simulated
 *     components
 * @param selfHosting Upshift's jar, when the releases are built on Upshift's image and the
 *     controller taking over mid-update runs from it; empty to keep every controller in this JVM
 * @param kubeconfigOut where to write a kubeconfig for the embedded API server, or null
 * @param rehearse rehearse the update (upshift rehearse) before asking for it, and compare
 * @param canary after the update, a canary in the worker pool stopped by a health gate
 */
public record DemoOptions(
        int operators,
        int runLevels,
        Duration rollout,
        int masters,
        int workers,
        double killEverySeconds,
        long seed,
        Duration timeout,
        EstimateSource estimates,
        boolean plain,
        boolean keepWorkDir,
        Path payload,
        Optional<Path> selfHosting,
        boolean controllerLog,
        Path kubeconfigOut,
        boolean keepRunning,
        boolean configChange,
        boolean rehearse,
        boolean canary) {}
