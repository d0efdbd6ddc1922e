package io.upshift.pools.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.graph.client.PromQLTarget;
import io.upshift.graph.command.PromQLOptions;
import io.upshift.pools.controller.PoolController;
import io.upshift.pools.controller.PoolControllerOptions;
import io.upshift.pools.metrics.ControllerFamilies;
import io.upshift.pools.metrics.Exposition;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.cli.MetricsServing;
import io.upshift.runtime.health.HealthServer;
import io.upshift.runtime.health.Startup;
import io.upshift.runtime.kube.Leadership;
import io.upshift.runtime.kube.WriteFence;
import io.upshift.runtime.metrics.MetricsOptions;
import io.upshift.runtime.metrics.MetricsServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.atomic.AtomicReference;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code upshift pools}: runs the machine-config pool controller while holding its leader Lease.
 */
@Command(
        name = "pools",
        mixinStandardHelpOptions = true,
        description = {
            "Run the machine-config pool controller.",
            "Renders each MachineConfigPool's config, rolls it across the pool's nodes"
                    + " (maxUnavailable, paused pools, maintenance windows) and reports the"
                    + " machine-config ClusterOperator."
        })
public final class PoolsCommand implements Callable<Integer> {
    @Mixin KubeconfigOption kube;

    @Option(
            names = "--release-version",
            required = true,
            paramLabel = "VERSION",
            description =
                    "The release this controller belongs to (marks rendered configs; reported by"
                            + " the ClusterOperator).")
    String releaseVersion;

    @Option(
            names = "--node-name",
            defaultValue = "${env:NODE_NAME:-}",
            paramLabel = "NODE",
            description =
                    "The node this controller runs on, updated last in its pool (default:"
                            + " $NODE_NAME).")
    String nodeName;

    @Option(
            names = "--render-grace",
            defaultValue = "PT10M",
            description = "Keep unused rendered configs this long (default: ${DEFAULT-VALUE}).")
    Duration renderGrace;

    @Option(
            names = "--namespace",
            defaultValue = "openshift-machine-config-operator",
            description =
                    "Namespace of the leader Lease and of the release's ConfigMaps"
                            + " machine-config-templates and machine-config-osimageurl (default:"
                            + " ${DEFAULT-VALUE}).")
    String namespace;

    @Option(
            names = "--health-port",
            defaultValue = "0",
            paramLabel = "PORT",
            description = {
                "Serve the kubelet's probes on this port, plain HTTP (0: off): /healthz while the"
                        + " process runs, /readyz once it waits for the Lease or leads with its"
                        + " controller started (503 with why not, before)."
            })
    int healthPort;

    @Mixin MetricsServing metrics;

    /** Where the pools' health gates on Prometheus are asked: the operator's flags for risks. */
    @Mixin PromQLOptions promql;

    @Option(
            names = "--health-gate-interval",
            defaultValue = "PT30S",
            paramLabel = "DURATION",
            description = {
                "Ask the pools' health gates on Prometheus again this often while a rollout is due"
                        + " (default: ${DEFAULT-VALUE}); a level cluster asks nothing."
            })
    Duration gateInterval;

    @Spec CommandSpec spec;

    /** The Service deploy/ gives the controller's metrics, named as upstream's. */
    static final String SERVICE = "machine-config-controller";

    @Override
    public Integer call() throws Exception {
        Startup.mark("command running");
        MetricsOptions metricsOptions = metrics.options(); // refused before anything starts
        PromQLTarget gates = promql.target(spec);
        if (gateInterval.isNegative() || gateInterval.isZero())
            throw new ParameterException(
                    spec.commandLine(),
                    "--health-gate-interval must be longer than 0, not " + gateInterval);
        String me = InetAddress.getLocalHost().getHostName();
        AtomicReference<PoolController> controller = new AtomicReference<>();
        PoolControllerOptions defaults = PoolControllerOptions.defaults(releaseVersion);
        PoolControllerOptions options =
                new PoolControllerOptions(
                        releaseVersion,
                        nodeName,
                        renderGrace,
                        defaults.minInterval(),
                        defaults.resync(),
                        namespace,
                        gates,
                        gateInterval);
        WriteFence fence =
                new WriteFence(); // closed the moment the Lease is lost: no write after that
        AtomicReference<String> unready =
                new AtomicReference<>(
                        "not contending for the Lease yet"); // for /readyz; null: ready
        try (HealthServer health =
                        healthPort > 0
                                ? HealthServer.start(
                                        new InetSocketAddress(healthPort), unready::get)
                                : null;
                KubernetesClient leaseClient = kube.connect();
                KubernetesClient client = fence.client(kube.config("upshift-pools"));
                // every replica serves metrics, leading or not (a replica that does not lead shows
                // the names alone): its client is not fenced, token reviews are POSTs
                KubernetesClient metricsClient =
                        metricsOptions.served() ? kube.connectAs("upshift-pools-metrics") : null;
                MetricsServer metricsServer =
                        metrics.start(
                                metricsOptions,
                                () -> {
                                    PoolController c = controller.get();
                                    return c != null
                                            ? c.scrape()
                                            : Exposition.render(ControllerFamilies.ALL, List.of());
                                },
                                metricsClient,
                                certificateNames(me, SERVICE, namespace))) {
            unready.set(null);
            Leadership leadership =
                    new Leadership(
                            leaseClient,
                            namespace,
                            "upshift-pools",
                            me,
                            () -> {
                                Startup.mark("Lease taken");
                                unready.set("the leader, starting its controller");
                                controller.set(
                                        new PoolController(client, Clock.systemUTC(), options)
                                                .start());
                                unready.set(null);
                                Startup.mark("ready");
                            },
                            () -> {
                                fence.close();
                                PoolController c = controller.getAndSet(null);
                                if (c != null) c.close();
                            });
            leadership.holdUntilLost(
                    () -> {
                        PoolController c = controller.getAndSet(null);
                        if (c != null) c.close();
                    });
        }
        return 1; // leadership lost, or the controller could not start (the Lease released),
        // without a shutdown: let the Deployment restart us
    }

    /** What a self-signed certificate is for: this pod and the Service in front of it. */
    static List<String> certificateNames(String me, String service, String namespace) {
        return List.of(
                me,
                service + "." + namespace + ".svc",
                service + "." + namespace + ".svc.cluster.local",
                service,
                "localhost",
                "127.0.0.1",
                "::1");
    }
}
