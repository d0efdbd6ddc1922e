package io.upshift.clusterversion.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.clusterversion.controller.ClusterVersionController;
import io.upshift.clusterversion.controller.CompletionMirror;
import io.upshift.clusterversion.controller.ControllerOptions;
import io.upshift.clusterversion.controller.FillingMetrics;
import io.upshift.clusterversion.metrics.ControllerFacts;
import io.upshift.graph.client.ClusterServices;
import io.upshift.graph.client.PromQLTarget;
import io.upshift.graph.client.PrometheusMatcher;
import io.upshift.graph.client.UpdateClient;
import io.upshift.graph.command.PromQLOptions;
import io.upshift.graph.risk.RuleMatcher;
import io.upshift.graph.updates.UpdatesRequest;
import io.upshift.releases.capability.CapabilitySets;
import io.upshift.releases.command.RegistryOptions;
import io.upshift.releases.image.Releases;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.signatures.HttpSignatureStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.health.HealthServer;
import io.upshift.runtime.health.Startup;
import io.upshift.runtime.kube.Leadership;
import io.upshift.runtime.kube.WriteFence;
import io.upshift.runtime.metrics.MetricsOptions;
import io.upshift.runtime.metrics.MetricsServer;
import io.upshift.runtime.metrics.ScrapeAccess;
import io.upshift.runtime.metrics.ServingCertificate;
import io.upshift.runtime.metrics.TokenAccess;
import io.upshift.status.controller.UpdateStatusController;
import io.upshift.status.model.Alert;
import io.upshift.status.model.ControllerPresence;
import io.upshift.status.reader.AlertsClient;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code upshift operator}: runs the controllers while holding the leader Lease. */
@Command(
        name = "operator",
        mixinStandardHelpOptions = true,
        description = {
            "Run the Upshift controllers against a cluster.",
            "While it holds the leader Lease: the UpdateStatus controller, and with --release the"
                    + " cluster-version controller; /metrics over HTTPS with --metrics-port or"
                    + " --listen."
        })
public final class OperatorCommand implements Callable<Integer> {
    @Mixin KubeconfigOption kube;

    @Option(
            names = "--namespace",
            defaultValue = ControllerPresence.NAMESPACE,
            description = "Namespace of the leader Lease (default: ${DEFAULT-VALUE}).")
    String namespace;

    @Option(
            names = "--lease",
            defaultValue = ControllerPresence.LEASE,
            description = "Name of the leader Lease (default: ${DEFAULT-VALUE}).")
    String lease;

    @Option(
            names = "--identity",
            description = "This replica's name in the Lease (default: the host name).")
    String identity;

    @Option(
            names = "--alerts-url",
            paramLabel = "URL",
            description = "Prometheus or Alertmanager to read firing alerts from.")
    String alertsUrl;

    @Option(
            names = "--resync",
            defaultValue = "PT30S",
            description =
                    "Re-evaluate this often without events (ISO-8601, default: ${DEFAULT-VALUE}).")
    Duration resync;

    @Option(
            names = "--release",
            paramLabel = "REF",
            description =
                    "The release this cluster-version controller runs (applied when the cluster has"
                            + " none yet); enables the controller.")
    String release;

    @Option(
            names = "--payload-cache",
            defaultValue = "/tmp/upshift-payloads",
            paramLabel = "DIR",
            description =
                    "Where pulled payloads are unpacked, one directory per digest (default:"
                            + " ${DEFAULT-VALUE}).")
    Path payloadCache;

    @picocli.CommandLine.Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--payload-retrieval",
            paramLabel = "job|pull",
            description = {
                "job: a Job version-<version>-<hash> runs the release image on this node and copies"
                    + " its payload into --payload-cache, a host directory this pod mounts at the"
                    + " same path (the default inside a cluster); pull: this process pulls it (the"
                    + " default outside one)."
            })
    String payloadRetrieval;

    @Option(
            names = "--node-name",
            defaultValue = "${env:NODE_NAME}",
            paramLabel = "NODE",
            description =
                    "The node this controller runs on, for payload Jobs (default: $NODE_NAME, from"
                            + " the downward API).")
    String nodeName;

    @Option(
            names = "--payload-retrieval-timeout",
            defaultValue = "PT2M",
            paramLabel = "DURATION",
            description = "How long a payload Job may take (ISO-8601, default: ${DEFAULT-VALUE}).")
    Duration retrievalTimeout;

    @Option(
            names = "--cluster-profile",
            defaultValue = "${env:CLUSTER_PROFILE:-self-managed-high-availability}",
            paramLabel = "P",
            description =
                    "The cluster profile manifests must opt in to (default: $CLUSTER_PROFILE, else"
                            + " self-managed-high-availability).")
    String clusterProfile;

    @Option(
            names = "--exclude-manifests",
            defaultValue = "${env:EXCLUDE_MANIFESTS}",
            paramLabel = "ID",
            description =
                    "Leave out manifests annotated exclude.release.openshift.io/ID: \"true\""
                            + " (default: $EXCLUDE_MANIFESTS).")
    String excludeManifests;

    @Option(
            names = "--always-enable-capabilities",
            split = ",",
            paramLabel = "A,B",
            description =
                    "List of the cluster capabilities which will always be implicitly enabled."
                            + " (deploy/: Ingress, as upstream's operator Deployment.)")
    List<String> alwaysEnableCapabilities = List.of();

    @Mixin PromQLOptions promql;

    @Option(
            names = "--default-upstream",
            defaultValue = UpdatesRequest.DEFAULT_UPSTREAM,
            paramLabel = "URL",
            description = {
                "The update graph asked for a ClusterVersion without spec.upstream (default:"
                        + " ${DEFAULT-VALUE}, upstream's own default); empty: none,"
                        + " RetrievedUpdates=False NoUpstream."
            })
    String defaultUpstream;

    @Option(
            names = "--metrics-port",
            defaultValue = "0",
            description =
                    "Serve /metrics on this port of every address, over HTTPS (0: off, unless"
                            + " --listen).")
    int metricsPort;

    @Option(
            names = "--listen",
            paramLabel = "[HOST]:PORT",
            description =
                    "Serve /metrics on this address, over HTTPS, as upstream's flag (no HOST: every"
                            + " address; empty: off); instead of --metrics-port.")
    String listen;

    @Option(
            names = "--metrics-auth",
            paramLabel = "none|token",
            description = {
                "Who may scrape /metrics. token: a bearer token that a TokenReview authenticates"
                    + " and whose user a SubjectAccessReview allows to get the non-resource URL"
                    + " /metrics (as kube-rbac-proxy checks; grants kept 2 minutes, tokens found"
                    + " invalid 1 minute; at most 10 reviews a minute per client address and 300 in"
                    + " all, 429 past them); none: anyone who reaches the port. Default: token"
                    + " inside a cluster, none outside one."
            })
    String metricsAuth;

    @Option(
            names = {"--serving-cert-file", "--metrics-tls-cert"},
            paramLabel = "FILE",
            description =
                    "The PEM certificate (chain, leaf first) /metrics is served with, read again"
                        + " when it changes; with --serving-key-file. Without them: a self-signed"
                        + " certificate made at start.")
    Path metricsTlsCert;

    @Option(
            names = {"--serving-key-file", "--metrics-tls-key"},
            paramLabel = "FILE",
            description =
                    "The PEM private key of --serving-cert-file (PKCS#8, PKCS#1 RSA or SEC 1 EC;"
                            + " unencrypted).")
    Path metricsTlsKey;

    @Option(
            names = "--serving-cert-optional",
            description =
                    "The files of --serving-cert-file and --serving-key-file may be absent (an"
                        + " optional Secret volume, empty where nothing makes the Secret): a"
                        + " self-signed certificate is served until both are there, then theirs.")
    boolean servingCertOptional;

    @Option(
            names = "--metrics-plain-http",
            description =
                    "Serve /metrics over plain HTTP instead of HTTPS: scrapers' bearer tokens and"
                            + " the metrics cross the network readable.")
    boolean metricsPlainHttp;

    @Option(
            names = "--health-port",
            defaultValue = "0",
            paramLabel = "PORT",
            description = {
                "Serve the kubelet's probes on this port, plain HTTP (0: off): /healthz while the"
                        + " process runs, /readyz once it waits for the Lease or leads with its"
                        + " controllers started (503 with why not, before)."
            })
    int healthPort;

    @picocli.CommandLine.Mixin RegistryOptions registry;

    @Override
    public Integer call() throws Exception {
        Startup.mark("command running");
        Set<String> alwaysEnabled = alwaysEnabledCapabilities(); // refused before anything starts
        ControllerOptions.JobRetrieval jobs =
                release == null ? null : jobRetrieval(); // refused before anything starts
        PromQLTarget risks = promql.target(spec);
        MetricsOptions metricsOptions = metricsOptions();
        String me = identity != null ? identity : InetAddress.getLocalHost().getHostName();
        ServingCertificate certificate =
                metricsOptions.served() ? servingCertificate(metricsOptions, me) : null;
        Supplier<Optional<List<Alert>>> alerts = alertsSource();
        AtomicReference<UpdateStatusController> controller = new AtomicReference<>();
        AtomicReference<ClusterVersionController> cvo = new AtomicReference<>();
        // The controllers write through a fence that closes the moment the Lease is lost: no write
        // after that.
        WriteFence fence = new WriteFence();
        // why this replica is not ready (null: it is), for /readyz
        AtomicReference<String> unready = new AtomicReference<>("not contending for the Lease yet");
        try (HealthServer health =
                        healthPort > 0
                                ? HealthServer.start(
                                        new InetSocketAddress(healthPort), unready::get)
                                : null;
                KubernetesClient leaseClient = kube.connect();
                KubernetesClient client = fence.client(kube.config("upshift-operator"));
                // every replica serves metrics, leading or not: its client is not fenced (token
                // reviews are POSTs)
                KubernetesClient metricsClient =
                        metricsOptions.served() ? kube.connectAs("upshift-metrics") : null;
                FillingMetrics metrics =
                        metricsClient == null
                                ? null
                                : FillingMetrics.start(
                                        metricsClient,
                                        () -> {
                                            ClusterVersionController v = cvo.get();
                                            if (v != null) return v.facts();
                                            return release == null
                                                    ? ControllerFacts.NONE
                                                    : ControllerFacts.waiting(
                                                            io.upshift.clusterversion.model
                                                                    .DesiredUpdates.bare(release));
                                        });
                MetricsServer metricsServer =
                        metrics == null
                                ? null
                                : serveMetrics(
                                        metricsOptions, certificate, metrics, metricsClient)) {
            if (release != null) {
                Optional<String> old = OldNamesGuard.refusal(leaseClient);
                if (old.isPresent()) throw new IllegalStateException(old.get());
            }
            unready.set(
                    null); // waiting for the Lease is where a replica that does not lead should be
            // the controllers start on a thread of their own: the Lease is renewed whatever their
            // start waits for
            Leadership leadership =
                    new Leadership(
                            leaseClient,
                            namespace,
                            lease,
                            me,
                            () -> {
                                Startup.mark("Lease taken");
                                unready.set("the leader, starting its controllers");
                                // the two controllers' caches fill side by side: the start waits
                                // for the slower, not for both in turn
                                CompletableFuture<ClusterVersionController> starting =
                                        release == null
                                                ? CompletableFuture.completedFuture(null)
                                                : CompletableFuture.supplyAsync(
                                                        () ->
                                                                startClusterVersionController(
                                                                        client,
                                                                        jobs,
                                                                        risks,
                                                                        alwaysEnabled,
                                                                        insightsFirst(controller)),
                                                        r ->
                                                                new Thread(
                                                                                r,
                                                                                "cluster-version-start")
                                                                        .start());
                                UpdateStatusController c =
                                        new UpdateStatusController(
                                                client,
                                                Clock.systemUTC(),
                                                Duration.ofSeconds(1),
                                                resync,
                                                alerts);
                                controller.set(c);
                                try {
                                    c.start();
                                } catch (RuntimeException e) {
                                    // the other start is stopped once it ends; nothing waits
                                    var unused =
                                            starting.thenAccept(
                                                    v -> {
                                                        if (v != null) v.kill();
                                                    });
                                    throw e;
                                }
                                try {
                                    cvo.set(starting.join());
                                } catch (CompletionException e) {
                                    throw e.getCause() instanceof RuntimeException r ? r : e;
                                }
                                Startup.mark("informers synced");
                                unready.set(null);
                                Startup.mark("ready");
                            },
                            () -> {
                                fence.close();
                                UpdateStatusController c = controller.getAndSet(null);
                                if (c != null) c.close();
                                ClusterVersionController v = cvo.getAndSet(null);
                                if (v != null) v.kill();
                            });
            // told to stop while leading: the controllers finish and write their last status, then
            // the Lease goes
            leadership.holdUntilLost(
                    () -> {
                        ClusterVersionController v = cvo.getAndSet(null);
                        if (v != null) v.close();
                    });
        }
        // Leadership ended without a shutdown (lost, or the controllers could not start and the
        // Lease was released):
        // exit non-zero so that the Deployment restarts us.
        return 1;
    }

    /** The metrics options, refused before anything starts when they do not go together. */
    private MetricsOptions metricsOptions() {
        String mode = metricsAuth != null ? metricsAuth : inCluster() ? "token" : "none";
        MetricsOptions.Auth auth =
                switch (mode) {
                    case "none" -> MetricsOptions.Auth.NONE;
                    case "token" -> MetricsOptions.Auth.TOKEN;
                    default ->
                            throw new picocli.CommandLine.ParameterException(
                                    spec.commandLine(),
                                    "--metrics-auth must be none or token, not \"" + mode + "\"");
                };
        if ((metricsTlsCert == null) != (metricsTlsKey == null)) {
            throw usage("--serving-cert-file and --serving-key-file go together");
        }
        if (metricsPlainHttp && metricsTlsCert != null) {
            throw usage(
                    "--metrics-plain-http serves no certificate: leave out --serving-cert-file"
                            + " and --serving-key-file, or it");
        }
        if (servingCertOptional && metricsTlsCert == null) {
            throw usage(
                    "--serving-cert-optional goes with --serving-cert-file and --serving-key-file");
        }
        MetricsOptions.Transport transport =
                metricsPlainHttp
                        ? new MetricsOptions.Transport.PlainHttp()
                        : metricsTlsCert != null
                                ? new MetricsOptions.Transport.Files(
                                        metricsTlsCert, metricsTlsKey, servingCertOptional)
                                : new MetricsOptions.Transport.SelfSigned();
        return new MetricsOptions(metricsAddress(), auth, transport);
    }

    /** Where /metrics is served: --listen or --metrics-port; null when neither asks for it. */
    private InetSocketAddress metricsAddress() {
        if (metricsPort < 0 || metricsPort > 65535)
            throw usage("--metrics-port must be a port, 0 for none");
        if (listen == null) return metricsPort == 0 ? null : new InetSocketAddress(metricsPort);
        if (metricsPort != 0) throw usage("--listen and --metrics-port say the same: give one");
        if (listen.isBlank()) return null; // upstream's way of turning metrics off
        int colon = listen.lastIndexOf(':');
        String host = colon < 0 ? "" : listen.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) host = host.substring(1, host.length() - 1);
        int port;
        try {
            port = colon < 0 ? -1 : Integer.parseInt(listen.substring(colon + 1));
        } catch (NumberFormatException e) {
            port = -1;
        }
        if (port < 0 || port > 65535)
            throw usage(
                    "--listen must be [HOST]:PORT (:9099, 0.0.0.0:9099), not \"" + listen + "\"");
        return host.isEmpty() ? new InetSocketAddress(port) : new InetSocketAddress(host, port);
    }

    private picocli.CommandLine.ParameterException usage(String message) {
        return new picocli.CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * The serving certificate, read (or made) before anything starts: a pair that does not read is
     * refused in one line. A self-signed one is for this replica's names and the Service deploy/
     * gives the metrics ({@code upshift-metrics} in the Lease's namespace), though a scraper cannot
     * verify it whatever its names.
     */
    private ServingCertificate servingCertificate(MetricsOptions o, String me) {
        String service = "upshift-metrics";
        List<String> names =
                List.of(
                        me,
                        service + "." + namespace + ".svc",
                        service + "." + namespace + ".svc.cluster.local",
                        service + "." + namespace,
                        service,
                        "localhost",
                        "127.0.0.1",
                        "::1");
        try {
            return o.certificate(names, Clock.systemUTC().instant());
        } catch (NoSuchFileException e) {
            throw usage(
                    e.getFile()
                            + ": no such file (--serving-cert-file/--serving-key-file; with"
                            + " --serving-cert-optional a self-signed certificate is served until"
                            + " both are there)");
        } catch (IOException | GeneralSecurityException e) {
            throw usage("--serving-cert-file/--serving-key-file: " + e.getMessage());
        }
    }

    private static MetricsServer serveMetrics(
            MetricsOptions o,
            ServingCertificate certificate,
            FillingMetrics metrics,
            KubernetesClient client)
            throws Exception {
        var log = LoggerFactory.getLogger(MetricsServer.class);
        ScrapeAccess access =
                o.auth() == MetricsOptions.Auth.TOKEN
                        ? new TokenAccess(client, Clock.systemUTC())
                        : ScrapeAccess.ANYONE;
        MetricsServer server =
                certificate == null
                        ? MetricsServer.startPlainHttp(o.address(), metrics::scrape, access)
                        : MetricsServer.start(o.address(), metrics::scrape, access, certificate);
        String who =
                o.auth() == MetricsOptions.Auth.TOKEN
                        ? "bearer tokens reviewed by the API server"
                        : "no authentication";
        String where = o.address().getHostString() + ":" + server.port();
        if (certificate == null) {
            log.warn(
                    "serving /metrics over plain HTTP on {} ({}), as --metrics-plain-http asks:"
                            + " scrapers' bearer tokens and the metrics cross the network"
                            + " readable",
                    where,
                    who);
        } else if (certificate.isSelfSigned()) {
            log.info(
                    "serving /metrics over HTTPS on {} ({}) with a self-signed certificate made at"
                            + " start, SHA-256 fingerprint {}: scrapers skip verification or pin"
                            + " it; --serving-cert-file and --serving-key-file give one they can"
                            + " verify",
                    where,
                    who,
                    certificate.fingerprint());
        } else {
            log.info(
                    "serving /metrics over HTTPS on {} ({}) with the certificate of {}",
                    where,
                    who,
                    ((MetricsOptions.Transport.Files) o.transport()).cert());
        }
        return server;
    }

    private static boolean inCluster() {
        return System.getenv("KUBERNETES_SERVICE_HOST") != null;
    }

    /**
     * Job retrieval, or null to pull in-process: job by default inside a cluster (where the service
     * host is set).
     */
    private ControllerOptions.JobRetrieval jobRetrieval() {
        String mode = payloadRetrieval != null ? payloadRetrieval : inCluster() ? "job" : "pull";
        switch (mode) {
            case "pull" -> {
                return null;
            }
            case "job" -> {
                if (nodeName == null || nodeName.isBlank()) {
                    throw new picocli.CommandLine.ParameterException(
                            spec.commandLine(),
                            "--payload-retrieval job needs the node this controller runs on:"
                                + " --node-name, or $NODE_NAME from the downward API"
                                + " (deploy/deployment.yaml sets it); or use --payload-retrieval"
                                + " pull");
                }
                return new ControllerOptions.JobRetrieval(namespace, nodeName, retrievalTimeout);
            }
            default ->
                    throw new picocli.CommandLine.ParameterException(
                            spec.commandLine(),
                            "--payload-retrieval must be job or pull, not \"" + mode + "\"");
        }
    }

    /**
     * The --always-enable-capabilities names, each one this version knows; an unknown one is
     * refused with upstream's words.
     */
    private Set<String> alwaysEnabledCapabilities() {
        List<String> unknown = new ArrayList<>();
        Set<String> names = new LinkedHashSet<>();
        for (String c : alwaysEnableCapabilities) {
            if (c.isBlank()) continue;
            if (CapabilitySets.known().contains(c)) names.add(c);
            else unknown.add(c);
        }
        if (!unknown.isEmpty())
            throw new picocli.CommandLine.ParameterException(
                    spec.commandLine(),
                    "--always-enable-capabilities was set with unknown capabilities: ["
                            + String.join(" ", unknown)
                            + "]");
        return names;
    }

    private ClusterVersionController startClusterVersionController(
            KubernetesClient client,
            ControllerOptions.JobRetrieval jobs,
            PromQLTarget risks,
            Set<String> alwaysEnabled,
            CompletionMirror mirror) {
        try {
            var log = LoggerFactory.getLogger(ClusterVersionController.class);
            ControllerOptions options =
                    ControllerOptions.defaults(release, payloadCache)
                            .withPrometheus(risks.url())
                            .withInclusion(
                                    clusterProfile,
                                    excludeManifests == null || excludeManifests.isBlank()
                                            ? null
                                            : excludeManifests)
                            .withJobRetrieval(jobs)
                            .withDefaultUpstream(defaultUpstream)
                            .withAlwaysEnabledCapabilities(alwaysEnabled);
            RuleMatcher rules =
                    new PrometheusMatcher(
                            risks,
                            new ClusterServices(client),
                            clusterId(client),
                            Duration.ofSeconds(10));
            ClusterVersionController c =
                    ClusterVersionController.create(
                            client,
                            options,
                            new Releases(
                                    registry.credentials(), registry.insecure, w -> log.warn(w)),
                            new SignatureStores(HttpSignatureStore.defaultClient()),
                            new UpdateClient(Duration.ofSeconds(60), new SplittableRandom()),
                            rules,
                            Clock.systemUTC());
            c.mirrorCompletionTo(mirror);
            c.start();
            return c;
        } catch (ReleaseException e) {
            throw new IllegalStateException(e.toString(), e);
        }
    }

    /**
     * The UpdateStatus controller of this process writes its copy of a Completed ClusterVersion
     * before the cluster-version controller writes it: the update's last write is Completed.
     */
    private static CompletionMirror insightsFirst(AtomicReference<UpdateStatusController> status) {
        return next -> {
            UpdateStatusController c = status.get();
            return c == null ? () -> {} : c.mirrorAhead(next);
        };
    }

    private static String clusterId(KubernetesClient client) {
        var cv = client.resources(ClusterVersion.class).withName("version").get();
        return cv == null || cv.getSpec() == null || cv.getSpec().getClusterID() == null
                ? ""
                : cv.getSpec().getClusterID();
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
                LoggerFactory.getLogger(OperatorCommand.class)
                        .warn("alerts left out of Update Health: {}", e.getMessage());
                return Optional.empty();
            }
        };
    }
}
