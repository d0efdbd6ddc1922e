package io.upshift.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.core.status.Alert;
import io.upshift.operator.Leadership;
import io.upshift.operator.alerts.AlertsClient;
import io.upshift.operator.status.UpdateStatusController;
import java.net.InetAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code upshift operator}: runs the controllers while holding the leader Lease. */
@Command(name = "operator", mixinStandardHelpOptions = true,
        description = "Run the Upshift controllers (now: the UpdateStatus controller) against a cluster.")
final class OperatorCommand implements Callable<Integer> {
    @Option(names = "--kubeconfig", paramLabel = "FILE", description = "Kubeconfig to use (default: $KUBECONFIG, in-cluster, ~/.kube/config).")
    String kubeconfig;

    @Option(names = "--namespace", defaultValue = "upshift", description = "Namespace of the leader Lease (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(names = "--lease", defaultValue = "upshift-operator", description = "Name of the leader Lease (default: ${DEFAULT-VALUE}).")
    String lease;

    @Option(names = "--identity", description = "This replica's name in the Lease (default: the host name).")
    String identity;

    @Option(names = "--alerts-url", paramLabel = "URL", description = "Prometheus or Alertmanager to read firing alerts from.")
    String alertsUrl;

    @Option(names = "--resync", defaultValue = "PT30S", description = "Re-evaluate this often without events (ISO-8601, default: ${DEFAULT-VALUE}).")
    Duration resync;

    @Option(names = "--verbose", description = "Print stack traces with errors.")
    boolean verbose;

    @Override
    public Integer call() throws Exception {
        String me = identity != null ? identity : InetAddress.getLocalHost().getHostName();
        Supplier<Optional<List<Alert>>> alerts = alertsSource();
        AtomicReference<UpdateStatusController> controller = new AtomicReference<>();
        try (KubernetesClient client = KubeClients.connect(kubeconfig)) {
            Leadership leadership = new Leadership(client, namespace, lease, me,
                    () -> {
                        UpdateStatusController c = new UpdateStatusController(client, Clock.systemUTC(),
                                Duration.ofSeconds(1), resync, alerts);
                        controller.set(c);
                        c.start();
                    },
                    () -> {
                        UpdateStatusController c = controller.getAndSet(null);
                        if (c != null) {
                            c.close();
                        }
                    });
            Runtime.getRuntime().addShutdownHook(new Thread(leadership::close, "release-lease"));
            leadership.await();
        }
        // Leadership ended without a shutdown: exit non-zero so that the Deployment restarts us.
        return 1;
    }

    private Supplier<Optional<List<Alert>>> alertsSource() {
        if (alertsUrl == null) {
            return Optional::empty;
        }
        AlertsClient client = new AlertsClient(alertsUrl);
        return () -> {
            try {
                return Optional.of(client.fetch());
            } catch (Exception e) {
                LoggerFactory.getLogger(OperatorCommand.class).warn("alerts left out of Update Health: {}", e.getMessage());
                return Optional.empty();
            }
        };
    }
}
