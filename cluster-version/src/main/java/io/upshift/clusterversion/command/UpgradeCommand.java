package io.upshift.clusterversion.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.base.gofmt.GoQuote;
import io.upshift.clusterversion.upgrade.UpgradeFlags;
import io.upshift.clusterversion.upgrade.UpgradeRequest;
import io.upshift.clusterversion.upgrade.UpgradeView;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.cli.UsageError;
import io.upshift.runtime.cli.VerboseOption;
import io.upshift.status.command.StatusCommand;
import io.upshift.status.model.ControllerPresence;
import io.upshift.status.reader.ControllerLeaseReader;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code upshift upgrade}: {@code oc adm upgrade} flag for flag. Bare, it shows the update state;
 * with a target it merge-patches ClusterVersion {@code spec.desiredUpdate}, refusing what oc
 * refuses in oc's words. The decisions are {@link UpgradeRequest}'s and {@link UpgradeView}'s; this
 * class reads flags and the cluster.
 */
@Command(
        name = "upgrade",
        mixinStandardHelpOptions = true,
        subcommands = {
            ChannelCommand.class,
            AcceptCommand.class,
            RollbackCommand.class,
            StatusCommand.class,
            RecommendCommand.class
        },
        description = {
            "Show the cluster's update state and recommended updates, or request an update, as oc"
                    + " adm upgrade.",
            "%nWithout options: the update state. --to VERSION or --to-image IMAGE: update to one"
                + " of the available updates (a conditional one only with --allow-not-recommended;"
                + " any image with --allow-explicit-upgrade). --to-latest: the newest."
                + " --to-multi-arch: the current version as a multi-architecture release. --clear:"
                + " cancel a requested update that has not started.",
            "%nA cluster that is Invalid, Failing or already Progressing is refused unless"
                    + " --allow-upgrade-with-warnings.%n"
        })
public final class UpgradeCommand implements Callable<Integer> {
    static final String NO_CLUSTER_VERSION =
            "No cluster version information available - you must be connected to an OpenShift"
                    + " version 4 server to fetch the current version";

    @Spec CommandSpec spec;

    @Option(
            names = "--to",
            paramLabel = "VERSION",
            description = "The version to update to; it must be one of the available updates.")
    String to;

    @Option(
            names = "--to-image",
            paramLabel = "IMAGE",
            description = "The release image to update to (by digest; by tag only with --force).")
    String toImage;

    // Go's boolean flags also take "=true" and "=false" (oc's own example is --to-latest=true).
    @Option(
            names = "--to-latest",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description = "Update to the latest (highest semantic version) available version.")
    boolean toLatest;

    @Option(
            names = "--to-multi-arch",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description = "Update the current version to its multi-architecture release.")
    boolean toMultiArch;

    @Option(
            names = "--clear",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description =
                    "Cancel a requested update that has not started (accepted risks are kept); no"
                            + " effect once it has.")
    boolean clear;

    @Option(
            names = "--force",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description =
                    "Update regardless of cluster-side guards (release verification, Upgradeable):"
                            + " spec.desiredUpdate.force.")
    boolean force;

    @Option(
            names = "--allow-explicit-upgrade",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description =
                    "With --to-image: update even if the image is not among the available updates.")
    boolean allowExplicitUpgrade;

    @Option(
            names = "--allow-upgrade-with-warnings",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description =
                    "Update regardless of client-side guards: the cluster is Invalid, Failing or"
                            + " already updating.")
    boolean allowUpgradeWithWarnings;

    @Option(
            names = "--include-not-recommended",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description =
                    "Also list the updates that are not recommended for this cluster, with why.")
    boolean includeNotRecommended;

    @Option(
            names = "--allow-not-recommended",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description =
                    "Allow an update that is supported but not recommended (a conditional update"
                            + " whose risks apply).")
    boolean allowNotRecommended;

    @Parameters(hidden = true)
    List<String> arguments = new ArrayList<>();

    @Mixin KubeconfigOption kube;

    @Mixin VerboseOption verbose;

    @Override
    public Integer call() {
        if (!arguments.isEmpty())
            throw new UsageError(
                    spec, "unknown command " + GoQuote.quote(String.join(" ", arguments)));
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        UpgradeFlags flags =
                new UpgradeFlags(
                        to,
                        toImage,
                        toLatest,
                        toMultiArch,
                        clear,
                        force,
                        allowExplicitUpgrade,
                        allowUpgradeWithWarnings,
                        allowNotRecommended);
        UpgradeRequest.FlagCheck check = UpgradeRequest.check(flags);
        check.warnings().forEach(err::print);
        err.flush();
        if (check.refusal().isPresent()) throw new IllegalArgumentException(check.refusal().get());
        try (KubernetesClient client = kube.connect()) {
            ClusterVersion cv = ClusterVersions.require(client, NO_CLUSTER_VERSION);
            if (flags.viewOnly()) {
                UpgradeView.Output view =
                        UpgradeView.render(
                                cv,
                                includeNotRecommended,
                                ControllerLeaseReader.read(client)
                                        .flatMap(
                                                lease ->
                                                        ControllerPresence.notRunning(
                                                                cv,
                                                                lease,
                                                                StatusCommand.clock.instant())));
                out.print(view.out());
                err.print(view.err());
                out.flush();
                err.flush();
            } else {
                ClusterVersions.carryOut(client, UpgradeRequest.decide(flags, cv), out, err);
            }
            return 0;
        }
    }
}
