package io.upshift.clusterversion.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.clusterversion.upgrade.ChannelChange;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.cli.UsageError;
import io.upshift.runtime.cli.VerboseOption;
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
 * {@code upshift upgrade channel [CHANNEL]}: set or clear the update channel, as {@code oc adm
 * upgrade channel}.
 */
@Command(
        name = "channel",
        mixinStandardHelpOptions = true,
        description = {
            "Set the update channel (spec.channel), or clear it when no channel is given. When the"
                + " current release lists its channels, a channel outside that list, or clearing a"
                + " listed one, needs --allow-explicit-channel.%n"
        })
public final class ChannelCommand implements Callable<Integer> {
    static final String NO_CLUSTER_VERSION =
            "no cluster version information available - you must be connected to an OpenShift"
                    + " version 4 server to fetch the current version";

    @Spec CommandSpec spec;

    @Parameters(
            paramLabel = "[CHANNEL]",
            arity = "0..*",
            hideParamSyntax = true,
            description = "The channel; none clears it.")
    List<String> arguments = new ArrayList<>();

    @Option(
            names = "--allow-explicit-channel",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description =
                    "Change the channel even if the release lists its channels and this one is not"
                            + " among them.")
    boolean allowExplicitChannel;

    @Mixin KubeconfigOption kube;

    @Mixin VerboseOption verbose;

    @Override
    public Integer call() {
        if (arguments.size() > 1) throw new UsageError(spec, "multiple positional arguments given");
        String channel = arguments.isEmpty() ? "" : arguments.get(0);
        try (KubernetesClient client = kube.connect()) {
            var cv = ClusterVersions.require(client, NO_CLUSTER_VERSION);
            ClusterVersions.carryOut(
                    client,
                    ChannelChange.decide(cv, channel, allowExplicitChannel),
                    spec.commandLine().getOut(),
                    spec.commandLine().getErr());
            return 0;
        }
    }
}
