package io.upshift.clusterversion.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.clusterversion.upgrade.AcceptRisks;
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
 * {@code upshift upgrade accept}: the conditional-update risks the administrator accepts ({@code
 * spec.desiredUpdate.acceptRisks}), as {@code oc adm upgrade accept} (openshift/oc main;
 * release-4.19 has no such command).
 */
@Command(
        name = "accept",
        mixinStandardHelpOptions = true,
        description = {
            "Accept risks of conditional updates (spec.desiredUpdate.acceptRisks).",
            "%nRISK,RISK,...: add these to the accepted risks; a name ending in - is removed"
                    + " instead (RiskA,RiskB,RiskC-). --replace: accept exactly the ones named."
                    + " --clear: accept none.%n"
        })
public final class AcceptCommand implements Callable<Integer> {
    static final String NO_CLUSTER_VERSION =
            "no cluster version information available - you must be connected to an OpenShift"
                    + " server to fetch the current version";

    @Spec CommandSpec spec;

    @Parameters(
            paramLabel = "[RISK,...]",
            arity = "0..*",
            hideParamSyntax = true,
            description = "Comma-separated risk names; NAME- stops accepting NAME.")
    List<String> arguments = new ArrayList<>();

    @Option(
            names = "--replace",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description = "Replace the accepted risks with the ones named.")
    boolean replace;

    @Option(
            names = "--clear",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "true|false",
            description = "Remove all accepted risks.")
    boolean clear;

    @Mixin KubeconfigOption kube;

    @Mixin VerboseOption verbose;

    @Override
    public Integer call() {
        AcceptRisks.Request request;
        try {
            request = AcceptRisks.parse(arguments, replace, clear);
        } catch (IllegalArgumentException e) {
            throw new UsageError(spec, e.getMessage());
        }
        try (KubernetesClient client = kube.connect()) {
            var cv = ClusterVersions.require(client, NO_CLUSTER_VERSION);
            ClusterVersions.carryOut(
                    client,
                    AcceptRisks.decide(request, cv),
                    spec.commandLine().getOut(),
                    spec.commandLine().getErr());
            return 0;
        }
    }
}
