package io.upshift.status.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.api.update.UpdateStatus;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.cli.VerboseOption;
import io.upshift.status.controller.UpdateStatusReader;
import io.upshift.status.model.Alert;
import io.upshift.status.model.ClusterState;
import io.upshift.status.model.ControllerPresence;
import io.upshift.status.model.UpdateAssessment;
import io.upshift.status.reader.AlertsClient;
import io.upshift.status.reader.ClusterReader;
import io.upshift.status.reader.ControllerLeaseReader;
import io.upshift.status.reader.MonitoringAlerts;
import io.upshift.status.render.Details;
import io.upshift.status.render.EstimateSource;
import io.upshift.status.render.StatusRenderer;
import io.upshift.status.snapshot.Snapshot;
import java.io.IOException;
import java.io.PrintWriter;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code upshift status}: where the update stands, as {@code oc adm upgrade status} shows it. */
@Command(
        name = "status",
        mixinStandardHelpOptions = true,
        description =
                "Display the status of the current cluster version update or multi-arch migration.")
public final class StatusCommand implements Callable<Integer> {
    public static Clock clock = Clock.systemUTC();

    @Spec CommandSpec spec;

    @Option(
            names = "--details",
            paramLabel = "SECTION",
            defaultValue = "none",
            description =
                    "Show detailed output in selected section. One of: none, all, nodes, health,"
                            + " operators.")
    String details;

    @Option(
            names = "--estimate",
            paramLabel = "WHOSE",
            defaultValue = "oc",
            description =
                    "Whose estimates to show: oc (the text exactly as oc prints it) or upshift"
                        + " (from the run-level times and the nodes' measured update times, with"
                        + " what they rest on; an EST column for worker pools).")
    String estimate;

    @ArgGroup(exclusive = true)
    Source source = new Source();

    static final class Source {
        @Option(
                names = "--snapshot",
                paramLabel = "DIR",
                description =
                        "Read the cluster from a directory of `kubectl get -o yaml|json` dumps"
                                + " instead of an API server; it is shown as of its latest recorded"
                                + " condition change.")
        String snapshot;

        @Option(
                names = "--mock-clusterversion",
                paramLabel = "FILE",
                description =
                        "Read the cluster from DIR/<case>-cv.yaml and its siblings -co.yaml,"
                                + " -mcp.yaml, -mc.yaml, -node.yaml (and optional -alerts.json,"
                                + " -mco-deployment.yaml), as oc's hidden flag of the same name.")
        String mockClusterVersion;

        @Option(
                names = "--from-api",
                description =
                        "Render the insights kept by the Upshift operator (the UpdateStatus and its"
                                + " insight objects) instead of assessing locally.")
        boolean fromApi;
    }

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
        Details d = Details.parse(details);
        EstimateSource e = EstimateSource.parse(estimate);
        PrintWriter out = spec.commandLine().getOut();
        String text;
        if (source.mockClusterVersion != null || source.snapshot != null) {
            ClusterState state =
                    source.mockClusterVersion != null
                            ? Snapshot.fromMockClusterVersion(source.mockClusterVersion)
                            : Snapshot.fromDirectory(source.snapshot);
            if (alertsUrl != null) {
                state = withAlerts(state, alerts());
            }
            Instant at = Snapshot.replayTime(state);
            text =
                    StatusRenderer.render(
                            UpdateAssessment.assess(state, at, clock.instant()), at, d, e);
        } else {
            try (KubernetesClient client = kube.connect()) {
                ClusterVersion cv;
                Optional<ControllerPresence.Lease> lease;
                Instant now;
                if (source.fromApi) {
                    cv = client.resources(ClusterVersion.class).withName("version").get();
                    UpdateStatusStatus status = UpdateStatusReader.read(client);
                    if (status == null) {
                        throw new IllegalStateException(
                                "updatestatuses.update.openshift.io/"
                                        + UpdateStatus.NAME
                                        + " has no status yet: is `upshift operator` running?");
                    }
                    lease = ControllerLeaseReader.read(client);
                    // the clock is read after the cluster, as the times it ages were
                    now = clock.instant();
                    text = StatusRenderer.render(status, now, d, e);
                } else {
                    ClusterState state = new ClusterReader(client).read(Optional.empty());
                    cv = state.clusterVersion();
                    lease = ControllerLeaseReader.read(client);
                    now = clock.instant();
                    text = render(state, now, d, e);
                    if (!text.equals(StatusRenderer.NOT_UPDATING)) {
                        // as oc: alerts are read only for an update, and where they cannot be,
                        // it says so first and shows the rest
                        MonitoringAlerts.Outcome alerts =
                                alertsUrl != null
                                        ? MonitoringAlerts.read(alertsUrl)
                                        : MonitoringAlerts.read(client);
                        now = clock.instant();
                        if (alerts instanceof MonitoringAlerts.Outcome.Read read)
                            text = render(state.withAlerts(Optional.of(read.alerts())), now, d, e);
                        else
                            text =
                                    UNREAD_ALERTS
                                            + ((MonitoringAlerts.Outcome.NotRead) alerts).why()
                                            + "\n"
                                            + render(state, now, d, e);
                    }
                }
                // the progress shown does not move while no controller runs: say so first
                Instant at = now;
                Optional<String> down =
                        lease.flatMap(l -> ControllerPresence.notRunning(cv, l, at));
                if (down.isPresent()) text = down.get() + "\n\n" + text;
            }
        }
        out.print(text);
        out.flush();
        return 0;
    }

    /** What oc prints before the status when it cannot read the alerts (its two spaces too). */
    static final String UNREAD_ALERTS =
            "Unable to fetch alerts, ignoring alerts in 'Update Health':  ";

    private static String render(ClusterState state, Instant now, Details d, EstimateSource e) {
        return StatusRenderer.render(UpdateAssessment.assess(state, now, now), now, d, e);
    }

    /**
     * Alerts that cannot be read are left out with a warning: the rest of the status still stands.
     */
    private Optional<List<Alert>> alerts() {
        try {
            return Optional.of(new AlertsClient(alertsUrl).fetch());
        } catch (IOException | RuntimeException e) {
            spec.commandLine()
                    .getErr()
                    .println(
                            "upshift: warning: alerts left out of Update Health: "
                                    + e.getMessage());
            return Optional.empty();
        }
    }

    private static ClusterState withAlerts(ClusterState s, Optional<List<Alert>> alerts) {
        return s.withAlerts(alerts);
    }
}
