package io.upshift.clusterversion.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.base.gofmt.GoQuote;
import io.upshift.clusterversion.upgrade.Rollback;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.cli.UsageError;
import io.upshift.runtime.cli.VerboseOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code upshift upgrade rollback}, also {@code upshift rollback}: back to the release the cluster
 * was attempting before its current one, as {@code oc adm upgrade rollback} in oc 4.19.
 */
@Command(
        name = "rollback",
        mixinStandardHelpOptions = true,
        description = {
            "Roll the cluster back to the previous release: the most recent history entry other"
                    + " than the current target.",
            "%nOnly an older patch release of the same major.minor, and only while no update is"
                    + " Progressing. Rolling back re-exposes the cluster to the bugs fixed since;"
                    + " rolling forward with fixes is usually better.%n"
        })
public final class RollbackCommand implements Callable<Integer> {
    static final String NO_CLUSTER_VERSION =
            "no cluster version information available - you must be connected to an OpenShift"
                    + " version 4 server to fetch the current version";

    @Spec CommandSpec spec;

    @Parameters(hidden = true)
    List<String> arguments = new ArrayList<>();

    @Mixin KubeconfigOption kube;

    @Mixin VerboseOption verbose;

    @Override
    public Integer call() {
        if (!arguments.isEmpty())
            throw new UsageError(
                    spec, "unknown command " + GoQuote.quote(String.join(" ", arguments)));
        try (KubernetesClient client = kube.connect()) {
            var cv = ClusterVersions.require(client, NO_CLUSTER_VERSION);
            ClusterVersions.carryOut(
                    client,
                    Rollback.decide(cv, "upshift upgrade"),
                    spec.commandLine().getOut(),
                    spec.commandLine().getErr());
            return 0;
        }
    }
}
