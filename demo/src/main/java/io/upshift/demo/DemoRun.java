package io.upshift.demo;

import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.clusterversion.controller.ClusterVersionController;
import io.upshift.clusterversion.controller.ControllerOptions;
import io.upshift.graph.client.UpdateClient;
import io.upshift.releases.image.ControllerDeployment;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.Releases;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.releases.signatures.HttpSignatureStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.releases.verify.DirectoryStore;
import io.upshift.releases.verify.Signer;
import io.upshift.releases.verify.SigningKeys;
import io.upshift.releases.verify.SimpleSignature;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import io.upshift.testkit.SimulatedCluster;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.UUID;
import java.util.function.Consumer;

/**
 * The whole system in one JVM: an embedded API server, a simulated cluster, two signed releases in
 * OCI layouts, and the real cluster-version controller installing the first and updating to the
 * second. Used by {@code upshift demo} and by the end-to-end tests.
 */
public final class DemoRun implements AutoCloseable {

    /**
     * Demo settings: {@code masters} and {@code workers} nodes are rolled by the real pool
     * controller and node agents (none: the machine-config component is left out). With a {@code
     * payload} directory (a real release's), the demo's releases are that payload and its next
     * patch, every ClusterOperator it declares simulated; it has no nodes then (a real payload's
     * machine configs are rendered by the machine-config operator, not shipped).
     */
    public record Settings(
            int operators,
            int runLevels,
            Duration rolloutDelay,
            long seed,
            Path workDir,
            int masters,
            int workers,
            Path payload) {
        public Settings(
                int operators, int runLevels, Duration rolloutDelay, long seed, Path workDir) {
            this(operators, runLevels, rolloutDelay, seed, workDir, 0, 0, null);
        }

        public Settings(
                int operators,
                int runLevels,
                Duration rolloutDelay,
                long seed,
                Path workDir,
                int masters,
                int workers) {
            this(operators, runLevels, rolloutDelay, seed, workDir, masters, workers, null);
        }

        boolean hasNodes() {
            return payload == null && masters + workers > 0;
        }
    }

    public static final String FROM = "4.18.1";

    /** The User-Agent of the cluster-version controller's requests. */
    public static final String CONTROLLER = "upshift-cluster-version";

    public static final String TO = "4.18.2";

    /** The node the demo's controller runs on, where its payload Jobs run. */
    static final String CONTROLLER_NODE = "control-plane-0";

    private final Settings settings;
    private final Clock clock = Clock.systemUTC();
    private final Consumer<String> log;
    private EmbeddedApiServer server;
    private KubernetesClient client;
    private SimulatedCluster cluster;
    private DemoNodes nodes;
    private volatile ClusterVersionController controller;
    private final Object controllerLock = new Object();
    private String releaseA, releaseB;
    private int restarts;
    private SigningKeys keys;
    private Path store;
    private Path fromCrd;
    private java.util.function.UnaryOperator<ControllerOptions> tuning = o -> o;
    private java.util.function.UnaryOperator<ConfigBuilder> controllerConfig = c -> c;
    private KubernetesClient controllerClient;

    private final PayloadCopies copies;

    /**
     * Upshift's jar, when the releases are built on Upshift's image and run their own controller
     * (see {@link #selfHosting}).
     */
    private Path upshiftJar;

    private ImageRef upshiftImage;
    private volatile ReleaseController released;
    private final Map<String, Map<String, Map<String, String>>> declared =
            new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * @throws io.upshift.releases.metadata.ReleaseException when the settings name a payload
     *     directory that is none
     */
    public DemoRun(Settings settings, Consumer<String> log)
            throws io.upshift.releases.metadata.ReleaseException {
        this.settings = settings;
        this.log = log;
        this.copies = settings.payload() == null ? null : new PayloadCopies(settings.payload());
    }

    /** The release installed first. */
    public String from() {
        return copies == null ? FROM : copies.from();
    }

    /** The release the demo updates to. */
    public String to() {
        return copies == null ? TO : copies.to();
    }

    /** True when the demo runs a real payload rather than its own simulated components. */
    public boolean realPayload() {
        return copies != null;
    }

    public KubernetesClient client() {
        return client;
    }

    public String releaseA() {
        return releaseA;
    }

    public String releaseB() {
        return releaseB;
    }

    /** Requests the embedded API server has answered so far. */
    public int apiRequests() {
        return server.requests().size();
    }

    /** Passes over the task graph the current controller ran. */
    public long controllerPasses() {
        return controller == null ? -1 : controller.passes();
    }

    /** API writes the current controller made. */
    public long controllerWrites() {
        return controller == null ? -1 : controller.writes();
    }

    public int restarts() {
        return restarts;
    }

    /**
     * Self-hosting releases, as OpenShift's: Upshift's image is built from {@code jar} (and the
     * {@code lib/} beside it), each release is laid on it, and when the controller's Deployment
     * changes, the controller that takes over is the new release's own code, read out of its image
     * and started as a process of its own, as that Deployment's pod.
     */
    public DemoRun selfHosting(Path jar) {
        this.upshiftJar = jar;
        return this;
    }

    /**
     * Builds and signs both releases, starts the API server, the simulated cluster and the
     * controller.
     */
    public DemoRun start() throws Exception {
        Path work = settings.workDir();
        keys = SigningKeys.generate("Upshift demo <demo@upshift.invalid>", clock.instant());
        store = Files.createDirectories(work.resolve("signatures"));
        if (upshiftJar != null) {
            long t0 = System.nanoTime();
            var image =
                    io.upshift.releases.image.UpshiftImage.build(
                            new io.upshift.releases.image.UpshiftImage.Inputs(
                                    upshiftJar,
                                    upshiftJar.resolveSibling("lib"),
                                    Path.of(System.getProperty("java.home")),
                                    "demo"),
                            Files.createDirectories(work.resolve("upshift-image")),
                            s -> {});
            upshiftImage = ImageRef.parse("oci:" + work.resolve("releases") + ":upshift");
            new Releases(DockerCredentials.none(), false, w -> {})
                    .publish(image, upshiftImage, ImageStore.Progress.NONE);
            FileTrees.deleteQuietly(work.resolve("upshift-image"));
            log.accept(
                    String.format(
                            "built Upshift's image in %.1f s; the releases are laid on it",
                            (System.nanoTime() - t0) / 1e9));
        }
        releaseA = publish(from(), List.of(), true, fromCrd);
        releaseB = publish(to(), List.of(from()), true);

        // deploy/'s RBAC, as an install applies it: the controllers and agents act as its
        // ServiceAccounts
        server = new EmbeddedApiServer().installRbac();
        client = server.client();
        client.resources(ClusterVersion.class)
                .resource(
                        new ClusterVersionBuilder()
                                .withNewMetadata()
                                .withName("version")
                                .endMetadata()
                                .withNewSpec()
                                .withClusterID(UUID.randomUUID().toString())
                                .withChannel(channel())
                                .endSpec()
                                .build())
                .create();
        cluster =
                new SimulatedCluster(
                                client,
                                settings.rolloutDelay(),
                                settings.seed(),
                                clock,
                                deployment -> {
                                    if (upshiftJar == null) {
                                        log.accept(
                                                "the controller's Deployment changed: Kubernetes"
                                                        + " replaces its pod");
                                        restartController();
                                    } else {
                                        log.accept(
                                                "the controller's Deployment changed: Kubernetes"
                                                    + " replaces its pod, which runs the release's"
                                                    + " own code as the Deployment says");
                                        runReleaseController(deployment);
                                    }
                                })
                        .declaredOperators(version -> declared.getOrDefault(version, Map.of()))
                        // the kubelet of the controller's node runs its payload Jobs: it pulls the
                        // release image's payload
                        .runsPayloadJobs(
                                (image, to) ->
                                        new Releases(DockerCredentials.none(), false, w -> {})
                                                .extract(
                                                        ImageRef.parse(image),
                                                        to,
                                                        ImageStore.Progress.NONE));
        if (settings.hasNodes()) {
            nodes =
                    new DemoNodes(
                                    server,
                                    work.resolve("hosts"),
                                    settings.masters(),
                                    settings.workers(),
                                    settings.rolloutDelay().dividedBy(2),
                                    clock)
                            .start();
            cluster.handOver(DemoPayloads.MACHINE_CONFIG, nodes::release);
        }
        cluster.start();
        startController();
        return this;
    }

    /**
     * Builds release {@code version} into the demo's OCI layout, signed or not; returns its
     * pullspec by digest.
     */
    public String publish(String version, List<String> previous, boolean signed) throws Exception {
        return publish(version, previous, signed, null);
    }

    /**
     * As {@link #publish(String, List, boolean)}, the payload carrying {@code clusterVersionCrd}
     * instead of Upshift's.
     */
    public String publish(
            String version, List<String> previous, boolean signed, Path clusterVersionCrd)
            throws Exception {
        Path work = settings.workDir();
        Path dir = work.resolve("payload-" + version + "-" + System.nanoTime());
        if (copies != null) {
            copies.write(dir, version, DemoPayloads.verification(keys.publicArmored(), store));
            declared.put(version, PayloadCopies.declaredOperators(dir));
        } else {
            DemoPayloads.write(
                    dir, version, components(), keys.publicArmored(), store, clusterVersionCrd);
        }
        Releases releases = new Releases(DockerCredentials.none(), false, w -> {});
        ResolvedImage image =
                releases.publish(
                        dir,
                        version,
                        previous,
                        upshiftImage,
                        ImageRef.parse("oci:" + work.resolve("releases") + ":" + version),
                        ImageStore.Progress.NONE);
        if (signed) {
            Signer signer =
                    Signer.load(
                            keys.secretArmored().getBytes(StandardCharsets.US_ASCII), new char[0]);
            new DirectoryStore(store)
                    .add(
                            image.digest(),
                            signer.sign(
                                    new SimpleSignature(
                                                    image.ref().repositoryName(),
                                                    image.digest(),
                                                    "upshift demo",
                                                    clock.instant().getEpochSecond())
                                            .toJson()));
        }
        return image.pullspec();
    }

    /**
     * Release A will carry this ClusterVersion CRD (e.g. an older release's) instead of Upshift's.
     */
    public DemoRun fromCrd(Path crd) {
        this.fromCrd = crd;
        return this;
    }

    /**
     * Adjusts the configuration of the controller's API client (applies from the next controller
     * start).
     */
    public DemoRun controllerConfig(java.util.function.UnaryOperator<ConfigBuilder> c) {
        this.controllerConfig = c;
        return this;
    }

    /** The embedded API server: its request log, and the faults it can inject. */
    public EmbeddedApiServer server() {
        return server;
    }

    /** Adjusts the controller's options (applies from the next controller start). */
    public DemoRun tune(java.util.function.UnaryOperator<ControllerOptions> t) {
        this.tuning = t;
        return this;
    }

    public SimulatedCluster cluster() {
        return cluster;
    }

    private List<DemoPayloads.Component> components() {
        return DemoPayloads.components(
                settings.operators(), settings.runLevels(), settings.hasNodes());
    }

    private void startController() {
        synchronized (controllerLock) {
            // payloads come through Jobs on the controller's node into its host directory, as on a
            // real cluster; the
            // demo's cluster has no update graph (no spec.upstream, and the demo never asks the
            // internet's)
            ControllerOptions options =
                    tuning.apply(
                            ControllerOptions.defaults(releaseA, nodePayloads())
                                    .withTiming(
                                            Duration.ofSeconds(2),
                                            Duration.ofSeconds(10),
                                            Duration.ofMillis(500))
                                    .withDefaultUpstream(null)
                                    .withJobRetrieval(
                                            new ControllerOptions.JobRetrieval(
                                                    "upshift",
                                                    CONTROLLER_NODE,
                                                    Duration.ofSeconds(60))));
            controllerClient =
                    new KubernetesClientBuilder()
                            .withConfig(
                                    controllerConfig
                                            .apply(
                                                    new ConfigBuilder(
                                                            server.config(
                                                                    CONTROLLER,
                                                                    ServiceAccount.UPSHIFT)))
                                            .build())
                            .build();
            controller =
                    ClusterVersionController.create(
                            controllerClient,
                            options,
                            new Releases(DockerCredentials.none(), false, w -> {}),
                            new SignatureStores(HttpSignatureStore.defaultClient()),
                            new UpdateClient(Duration.ofSeconds(5), new SplittableRandom()),
                            rule -> {
                                throw new io.upshift.graph.risk.RuleMatcher.RuleException(
                                        "no Prometheus in the demo");
                            },
                            clock);
            controller.start();
        }
    }

    /**
     * The pod of the controller's Deployment takes over, run by the demo's kubelet on the
     * controller's node from that Deployment alone ({@link ReleaseController}): the one running (in
     * this JVM, or the previous pod's process) is stopped first, as strategy Recreate does.
     */
    private void runReleaseController(io.fabric8.kubernetes.api.model.apps.Deployment deployment) {
        synchronized (controllerLock) {
            stopInProcessController();
            if (released != null) released.close();
            released = null;
            try {
                released =
                        ReleaseController.start(
                                new Releases(DockerCredentials.none(), false, w -> {}),
                                deployment,
                                CONTROLLER_NODE,
                                nodeRoot(CONTROLLER_NODE),
                                settings.workDir(),
                                ++restarts,
                                (serviceAccount, podDir) ->
                                        ReleaseController.apiServerAccess(
                                                server,
                                                ServiceAccount.of(
                                                        deployment.getMetadata().getNamespace(),
                                                        serviceAccount),
                                                podDir),
                                log);
            } catch (Exception e) {
                throw new IllegalStateException(
                        "cannot start the pod of "
                                + deployment.getMetadata().getNamespace()
                                + "/"
                                + deployment.getMetadata().getName()
                                + ": "
                                + e.getMessage(),
                        e);
            }
        }
    }

    /**
     * The filesystem of simulated node {@code node}: its hostPath volumes are under it (a node with
     * an agent has it as its host root).
     */
    private Path nodeRoot(String node) {
        return settings.workDir().resolve("hosts").resolve(node);
    }

    /**
     * Where the controller's node keeps payloads: the hostPath of its Deployment's {@code payloads}
     * volume, on that node. The controller running in this JVM uses it as its pod would (its
     * mount), so that the pod that takes over finds there what its predecessor retrieved, as on a
     * real node.
     */
    Path nodePayloads() {
        for (com.fasterxml.jackson.databind.JsonNode v :
                ControllerDeployment.installed().at("/spec/template/spec/volumes")) {
            if ("payloads".equals(v.path("name").asText()))
                return ContainerLaunch.onNode(
                        nodeRoot(CONTROLLER_NODE), v.at("/hostPath/path").asText());
        }
        throw new IllegalStateException("deploy/deployment.yaml has no volume named payloads");
    }

    private void stopInProcessController() {
        if (controller == null) return;
        controller.kill();
        controllerClient.close();
        controller = null;
    }

    /** As the node would kill the pod: abruptly, then a new one starts from cluster state. */
    public void restartController() {
        synchronized (controllerLock) {
            if (released != null) {
                // a release's own controller: its pod is replaced by one of the Deployment as it is
                // now, as Kubernetes
                // does (the old one lets go of its Lease first)
                var d = released.deployment();
                var now =
                        client.apps()
                                .deployments()
                                .inNamespace(d.getMetadata().getNamespace())
                                .withName(d.getMetadata().getName())
                                .get();
                runReleaseController(now != null ? now : d);
                return;
            }
            controller.kill();
            controllerClient.close(); // its process is gone, and its connections with it
            restarts++;
            startController();
        }
    }

    public void requestUpdate() {
        requestUpdate(to(), releaseB, false);
    }

    /**
     * The channel the demo's cluster is on: {@code stable-} and the first release's minor version.
     */
    private String channel() {
        io.upshift.base.version.SemVer v = io.upshift.base.version.SemVer.parse(from());
        return "stable-" + v.major() + "." + v.minor();
    }

    /** Sets spec.desiredUpdate as an administrator would (version or image may be null). */
    public void requestUpdate(String version, String image, boolean force) {
        ClusterVersion cv = client.resources(ClusterVersion.class).withName("version").get();
        var update = new io.fabric8.openshift.api.model.config.v1.Update();
        update.setVersion(version);
        update.setImage(image);
        if (force) update.setForce(true);
        cv.getSpec().setDesiredUpdate(update);
        client.resources(ClusterVersion.class).resource(cv).update();
    }

    /** True when history[0] is {@code version}, Completed. */
    public boolean completed(String version) {
        ClusterVersion cv = client.resources(ClusterVersion.class).withName("version").get();
        if (cv == null
                || cv.getStatus() == null
                || cv.getStatus().getHistory() == null
                || cv.getStatus().getHistory().isEmpty()) return false;
        UpdateHistory top = cv.getStatus().getHistory().get(0);
        return version.equals(top.getVersion()) && "Completed".equals(top.getState());
    }

    /**
     * When the last node was Done with its update, as its agent recorded it; empty without nodes.
     */
    public java.util.Optional<Instant> lastNodeDone() {
        Instant last = null;
        for (io.fabric8.kubernetes.api.model.Node n : client.nodes().list().getItems()) {
            Map<String, String> a = n.getMetadata().getAnnotations();
            String done =
                    a == null ? null : a.get(io.upshift.pools.model.NodeAnnotations.UPDATE_DONE_AT);
            if (done != null && (last == null || Instant.parse(done).isAfter(last)))
                last = Instant.parse(done);
        }
        return java.util.Optional.ofNullable(last);
    }

    public ClusterVersion clusterVersion() {
        return client.resources(ClusterVersion.class).withName("version").get();
    }

    /**
     * Waits until {@code version} is Completed, calling {@code tick} about once a second; false on
     * timeout.
     */
    public boolean await(String version, Duration timeout, Runnable tick)
            throws InterruptedException {
        Instant deadline = clock.instant().plus(timeout);
        while (clock.instant().isBefore(deadline)) {
            if (completed(version)) return true;
            tick.run();
            Thread.sleep(1000);
        }
        return completed(version);
    }

    /**
     * Waits until every pool runs {@code version}'s config on all its nodes, calling {@code tick}
     * about once a second; true at once when the demo has no nodes, false on timeout.
     */
    public boolean awaitNodes(String version, Duration timeout, Runnable tick)
            throws InterruptedException {
        Instant deadline = clock.instant().plus(timeout);
        while (nodes != null && !nodes.updated(version)) {
            if (!clock.instant().isBefore(deadline)) return false;
            tick.run();
            Thread.sleep(1000);
        }
        return true;
    }

    /**
     * After the update: a file changed on every node under a node disruption policy that needs no
     * reboot, waited for until every node runs it ({@link ConfigChange}); {@code tick} is called
     * about once a second.
     *
     * @throws IllegalStateException when the demo has no nodes, or the change does not reach them
     *     all in time
     */
    public ConfigChange.Result configChange(Duration timeout, Runnable tick)
            throws InterruptedException {
        if (nodes == null) throw new IllegalStateException("the demo has no nodes to change");
        return new ConfigChange(client, nodes, clock).run(to(), timeout, tick);
    }

    /**
     * The least time the simulated work needs: run-levels in series, each as slow as its slowest
     * rollout; the machine-config operator reports the version only once the control-plane pool has
     * rolled out too.
     */
    public Duration criticalPath() {
        Map<String, Duration> alongside =
                nodes == null
                        ? Map.of()
                        : Map.of(DemoPayloads.MACHINE_CONFIG, nodes.controlPlaneRollout());
        long total = cluster.rollout("upshift", "upshift-controller", TO).toMillis();
        Map<Integer, Long> slowest = new java.util.TreeMap<>();
        for (DemoPayloads.Component c : components()) {
            long ms =
                    Math.max(
                            cluster.rollout(c.namespace(), c.operator(), TO).toMillis(),
                            alongside.getOrDefault(c.name(), Duration.ZERO).toMillis());
            slowest.merge(c.runLevel(), ms, Math::max);
        }
        for (long ms : slowest.values()) total += ms;
        return Duration.ofMillis(total);
    }

    @Override
    public void close() {
        if (controller != null) controller.kill();
        if (released != null) released.close();
        if (controllerClient != null) controllerClient.close();
        if (cluster != null) cluster.close();
        if (nodes != null) nodes.close();
        if (client != null) client.close();
        if (server != null) server.close();
    }
}
