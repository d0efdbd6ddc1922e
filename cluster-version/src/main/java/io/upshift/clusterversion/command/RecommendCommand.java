package io.upshift.clusterversion.command;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.base.version.SemVer;
import io.upshift.clusterversion.recommend.AlertPrechecks;
import io.upshift.clusterversion.recommend.Precheck;
import io.upshift.clusterversion.recommend.Recommendation;
import io.upshift.runtime.cli.CheckFailedException;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.cli.VerboseOption;
import io.upshift.status.reader.MonitoringAlerts;
import io.upshift.status.snapshot.AlertsFile;
import io.upshift.status.snapshot.ResourceFiles;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code upshift recommend}: which updates the cluster may take and what stands in the way, as
 * {@code oc adm upgrade recommend}.
 */
@Command(
        name = "recommend",
        description = {
            "Displays cluster update recommendations: recent targets per minor version, with known"
                    + " issues.",
            "Read-only. Exit code 1 when --version names a target with issues not listed in"
                    + " --accept."
        })
public final class RecommendCommand implements Callable<Integer> {

    @Spec CommandSpec spec;

    // --help by hand: the standard help options would bring a --version of their own, and --version
    // here names a target.
    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help message and exit.")
    boolean help;

    @Option(
            names = "--show-outdated-releases",
            description = "Display every known target, including older releases.")
    boolean showOutdated;

    @Option(
            names = "--version",
            paramLabel = "VERSION",
            description = "Display context for one target release.")
    String version;

    @Option(
            names = "--quiet",
            description = "With --version, print nothing; only the exit code tells.")
    boolean quiet;

    @Option(
            names = "--accept",
            split = ",",
            paramLabel = "NAME",
            description = "Issue names you find acceptable (with --version).")
    List<String> accept = List.of();

    @Option(
            names = "--mock-clusterversion",
            paramLabel = "FILE",
            description =
                    "Read the ClusterVersion from FILE (ending -cv.yaml) and alerts from the"
                            + " sibling -alerts.json.")
    String mockClusterVersion;

    @Mixin KubeconfigOption kube;

    @Option(
            names = "--alerts-url",
            paramLabel = "URL",
            description =
                    "Prometheus (/api/v1/alerts) or Alertmanager (/api/v2/alerts) to read firing"
                            + " alerts from, in place of the cluster's monitoring (the Route"
                            + " openshift-monitoring/thanos-querier, read with the kubeconfig's"
                            + " token as oc reads it); read as given, with no credentials.")
    String alertsUrl;

    @Mixin VerboseOption verbose;

    @Override
    public Integer call() throws IOException {
        if (version == null && quiet)
            throw new IllegalArgumentException("--quiet can only be set when --version is set");
        if (version != null && showOutdated)
            throw new IllegalArgumentException(
                    "when --version is set, --show-outdated-releases is unnecessary");
        SemVer target;
        try {
            target = version == null ? null : SemVer.parse(version);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "cannot parse SemVer target \"" + version + "\": " + e.getMessage(), e);
        }
        ClusterVersion cv;
        List<Precheck> prechecks = List.of();
        String precheckError = null;
        if (mockClusterVersion != null) {
            cv = mockClusterVersion(mockClusterVersion);
            String alertsPath = mockClusterVersion.replace("-cv.yaml", "-alerts.json");
            prechecks =
                    Files.exists(Path.of(alertsPath))
                            ? AlertPrechecks.of(
                                    AlertsFile.parse(
                                            alertsPath, Files.readAllBytes(Path.of(alertsPath))))
                            : AlertPrechecks.noTestData(alertsPath);
        } else {
            try (KubernetesClient client = kube.connect()) {
                cv = ClusterVersions.get(client);
                if (cv == null) {
                    throw new IllegalStateException(
                            "No cluster version information available: "
                                    + ClusterVersions.NAME
                                    + " does not exist");
                }
                // as oc: the cluster's monitoring, found by its Route and read as the user
                MonitoringAlerts.Outcome alerts =
                        alertsUrl == null
                                ? MonitoringAlerts.read(client)
                                : MonitoringAlerts.read(alertsUrl);
                if (alerts instanceof MonitoringAlerts.Outcome.Read read)
                    prechecks = AlertPrechecks.of(read.alerts());
                else
                    precheckError =
                            (alertsUrl == null ? "" : "reading alerts from " + alertsUrl + ": ")
                                    + ((MonitoringAlerts.Outcome.NotRead) alerts).why();
            }
        }
        Recommendation.Output result =
                new Recommendation(showOutdated, target, quiet, new HashSet<>(accept))
                        .render(cv, prechecks, precheckError);
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        out.print(result.out());
        out.flush();
        err.print(result.err());
        err.flush();
        if (result.error() != null) {
            if (result.error().startsWith("issues that apply"))
                throw new CheckFailedException(result.error());
            throw new IllegalStateException(result.error());
        }
        return 0;
    }

    private static ClusterVersion mockClusterVersion(String path) throws IOException {
        List<HasMetadata> objects = ResourceFiles.read(path, Files.readAllBytes(Path.of(path)));
        return objects.stream()
                .filter(ClusterVersion.class::isInstance)
                .map(ClusterVersion.class::cast)
                .findFirst()
                .orElseThrow(
                        () -> new IllegalArgumentException(path + ": holds no ClusterVersion"));
    }
}
