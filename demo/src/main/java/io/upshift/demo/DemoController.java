package io.upshift.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.upshift.clusterversion.controller.ClusterVersionController;
import io.upshift.clusterversion.controller.ControllerOptions;
import io.upshift.graph.client.UpdateClient;
import io.upshift.graph.risk.RuleMatcher;
import io.upshift.releases.image.ControllerDeployment;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.Releases;
import io.upshift.releases.signatures.HttpSignatureStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The cluster-version controller's pod on the control-plane node {@value #NODE}, as the cluster's
 * kubelet runs it: first the controller of the release being installed, in this JVM; then, each
 * time the controller's Deployment rolls out, a new pod of it, the old one stopped first (strategy
 * Recreate), either this JVM's controller again or, when the releases are built on Upshift's image,
 * the release's own code ({@link ReleaseController}). Killed and restarted on demand, as a node
 * kills a pod; the new one resumes from cluster state.
 */
public final class DemoController implements AutoCloseable {

    /** The User-Agent of the cluster-version controller's requests. */
    public static final String USER_AGENT = "upshift-cluster-version";

    /** The node the controller runs on, where its payload Jobs run. */
    public static final String NODE = "control-plane-0";

    /**
     * How the controller runs.
     *
     * @param release the release image the first controller runs (its {@code --release}): applied
     *     when the cluster has none yet, as an install
     * @param releaseImagePods when the controller's Deployment changes, its new pod runs the code
     *     of the Deployment's image (releases built on Upshift's image) rather than this JVM's
     *     controller
     * @param options adjusts the demo's controller options (in this JVM)
     * @param client adjusts the configuration of the controller's API client (in this JVM)
     */
    public record Settings(
            String release,
            boolean releaseImagePods,
            UnaryOperator<ControllerOptions> options,
            UnaryOperator<ConfigBuilder> client) {

        /** The controller of {@code release}, in this JVM, with the demo's options. */
        public static Settings of(String release) {
            return new Settings(release, false, o -> o, c -> c);
        }

        public Settings withReleaseImagePods(boolean releaseImagePods) {
            return new Settings(release, releaseImagePods, options, client);
        }

        public Settings withOptions(UnaryOperator<ControllerOptions> options) {
            return new Settings(release, releaseImagePods, options, client);
        }

        public Settings withClient(UnaryOperator<ConfigBuilder> client) {
            return new Settings(release, releaseImagePods, options, client);
        }
    }

    private final EmbeddedApiServer server;
    private final KubernetesClient cluster;
    private final Path work;
    private final Clock clock;
    private final Settings settings;
    private final Consumer<String> log;
    private final Object lock = new Object();
    private volatile ClusterVersionController inProcess;
    private KubernetesClient inProcessClient;
    private volatile ReleaseController released;

    /**
     * The release the controller in this JVM runs as ({@code --release}): the first one, then the
     * image its Deployment's pod runs once the Deployment changes.
     */
    private volatile String release;

    private volatile int restarts;
    private boolean closed;

    /**
     * A controller for the cluster behind {@code server}, whose Deployment is read with {@code
     * cluster}; {@code work} holds the node's files ({@code hosts/}{@value #NODE}) and its pods'
     * (their logs, {@code controller-N.log}).
     */
    DemoController(
            EmbeddedApiServer server,
            KubernetesClient cluster,
            Path work,
            Clock clock,
            Settings settings,
            Consumer<String> log) {
        this.server = server;
        this.cluster = cluster;
        this.work = work;
        this.clock = clock;
        this.settings = settings;
        this.release = settings.release();
        this.log = log;
    }

    /** Starts the first controller, in this JVM. */
    void start() {
        synchronized (lock) {
            startInProcess();
        }
    }

    /**
     * The process of the controller's pod, run from its release image's own code.
     *
     * @param startedNanos {@link System#nanoTime()} just before it was started
     * @param ports each containerPort and the port of this machine it stands for
     * @param log its output, after the command line it ran with
     */
    public record PodProcess(
            ProcessHandle process, long startedNanos, Map<Integer, Integer> ports, Path log) {}

    /**
     * The process of the controller's pod when the release's own code runs it (not this JVM's
     * controller).
     */
    public Optional<PodProcess> podProcess() {
        ReleaseController r = released;
        return Optional.ofNullable(r == null ? null : r.podProcess());
    }

    /** How many times the controller's pod was replaced, killed or rolled out. */
    public int restarts() {
        return restarts;
    }

    /** Passes over the task graph the controller running in this JVM made; -1 when none runs. */
    public long passes() {
        ClusterVersionController c = inProcess;
        return c == null ? -1 : c.passes();
    }

    /** API writes the controller running in this JVM made; -1 when none runs. */
    public long writes() {
        ClusterVersionController c = inProcess;
        return c == null ? -1 : c.writes();
    }

    /**
     * Where the controller's node keeps payloads: the hostPath of its Deployment's {@code payloads}
     * volume, on that node. The controller running in this JVM uses it as its pod would (its
     * mount), so that the pod that takes over finds there what its predecessor retrieved, as on a
     * real node.
     */
    public Path payloads() {
        for (JsonNode v : ControllerDeployment.installed().at("/spec/template/spec/volumes")) {
            if ("payloads".equals(v.path("name").asText()))
                return ContainerLaunch.onNode(nodeRoot(), v.at("/hostPath/path").asText());
        }
        throw new IllegalStateException("deploy/deployment.yaml has no volume named payloads");
    }

    /**
     * The controller's Deployment changed: Kubernetes replaces its pod with one of the Deployment
     * as it now is, at once (strategy Recreate); the Deployment has rolled out once that pod is
     * ready ({@link #podReady}).
     */
    void changed(Deployment deployment) {
        if (settings.releaseImagePods()) {
            log.accept(
                    "the controller's Deployment changed: Kubernetes replaces its pod, which runs"
                            + " the release's own code as the Deployment says");
            runReleasePod(deployment);
        } else {
            log.accept("the controller's Deployment changed: Kubernetes replaces its pod");
            // its pod runs the image the Deployment now names: this JVM's code, given that release
            String image =
                    deployment.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
            if (image != null && !image.isBlank()) release = image;
            restart();
        }
    }

    /**
     * Whether the controller's pod is ready, as its kubelet's probes say: the release's own pod
     * once its readiness probe passed; the controller in this JVM (which has no probes) at once.
     */
    boolean podReady() {
        ReleaseController r = released;
        return r == null || r.ready();
    }

    /** As the node would kill the pod: abruptly, then a new one starts from cluster state. */
    public void restart() {
        synchronized (lock) {
            if (closed) return;
            if (released != null) {
                // a release's own controller: its pod is replaced by one of the Deployment as it is
                // now, as Kubernetes does (the old one lets go of its Lease first)
                Deployment d = released.deployment();
                Deployment now =
                        cluster.apps()
                                .deployments()
                                .inNamespace(d.getMetadata().getNamespace())
                                .withName(d.getMetadata().getName())
                                .get();
                runReleasePod(now != null ? now : d);
                return;
            }
            stopInProcess(); // its process is gone, and its connections with it
            restarts++;
            startInProcess();
        }
    }

    private void startInProcess() {
        // payloads come through Jobs on the controller's node into its host directory, as on a
        // real cluster; the demo's cluster has no update graph (no spec.upstream, and the demo
        // never asks the internet's)
        ControllerOptions options =
                settings.options()
                        .apply(
                                ControllerOptions.defaults(release, payloads())
                                        .withTiming(
                                                Duration.ofSeconds(2),
                                                Duration.ofSeconds(10),
                                                Duration.ofMillis(500))
                                        .withDefaultUpstream(null)
                                        .withJobRetrieval(
                                                new ControllerOptions.JobRetrieval(
                                                        ControllerDeployment.NAMESPACE,
                                                        NODE,
                                                        Duration.ofSeconds(60))));
        inProcessClient =
                new KubernetesClientBuilder()
                        .withConfig(
                                settings.client()
                                        .apply(
                                                new ConfigBuilder(
                                                        server.config(
                                                                USER_AGENT,
                                                                ServiceAccount.UPSHIFT)))
                                        .build())
                        .build();
        inProcess =
                ClusterVersionController.create(
                        inProcessClient,
                        options,
                        new Releases(DockerCredentials.none(), false, w -> {}),
                        new SignatureStores(HttpSignatureStore.defaultClient()),
                        new UpdateClient(Duration.ofSeconds(5), new SplittableRandom()),
                        rule -> {
                            throw new RuleMatcher.RuleException("no Prometheus in the demo");
                        },
                        clock);
        inProcess.start();
    }

    /**
     * The pod of the controller's Deployment takes over, run by the kubelet of the controller's
     * node from that Deployment alone ({@link ReleaseController}): the one running (in this JVM, or
     * the previous pod's process) is stopped first, gracefully as a kubelet stops a pod (it writes
     * its last status, run-level times included), as strategy Recreate does.
     */
    private void runReleasePod(Deployment deployment) {
        synchronized (lock) {
            if (closed) return;
            // as a kubelet stops a pod: SIGTERM, and the controller's last status is written
            if (inProcess != null) {
                inProcess.close();
                inProcessClient.close();
                inProcess = null;
            }
            if (released != null) released.close();
            released = null;
            try {
                released =
                        ReleaseController.start(
                                new Releases(DockerCredentials.none(), false, w -> {}),
                                deployment,
                                NODE,
                                nodeRoot(),
                                work,
                                ++restarts,
                                (serviceAccount, podDir) ->
                                        ReleaseController.apiServerAccess(
                                                server,
                                                ServiceAccount.of(
                                                        deployment.getMetadata().getNamespace(),
                                                        serviceAccount),
                                                podDir),
                                ReleaseController.configMaps(server),
                                log);
            } catch (Exception e) {
                String why =
                        "cannot start the pod of "
                                + deployment.getMetadata().getNamespace()
                                + "/"
                                + deployment.getMetadata().getName()
                                + ": "
                                + e;
                log.accept(why); // said where the demo's user reads, not only in a thread's end
                throw new IllegalStateException(why, e);
            }
        }
    }

    private void stopInProcess() {
        if (inProcess == null) return;
        inProcess.kill();
        inProcessClient.close();
        inProcess = null;
    }

    /**
     * The filesystem of the controller's node: its hostPath volumes are under it (as under a node
     * with an agent, its host root).
     */
    private Path nodeRoot() {
        return work.resolve("hosts").resolve(NODE);
    }

    @Override
    public void close() {
        synchronized (lock) {
            closed = true;
            if (inProcess != null) inProcess.kill();
            if (released != null) released.close();
            if (inProcessClient != null) inProcessClient.close();
        }
    }
}
