package io.upshift.clusterversion.controller;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatus;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionSpec;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.graph.client.UpdateClient;
import io.upshift.graph.risk.RuleMatcher;
import io.upshift.releases.image.Egress;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.Conflicts;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.RequestLog;
import io.upshift.testkit.ServiceAccount;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.function.BiFunction;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.Supplier;

/**
 * The cluster-version controller on an API server ({@link ApiServers}: a real kube-apiserver when
 * the binaries are there, the embedded one otherwise), with releases from {@link FakePayloads} and
 * one test operator: it reports the version its ConfigMap names on the ClusterOperator {@code
 * test-operator}, as a real operator reports what it rolled out, unless the test holds it back.
 */
final class ControllerHarness implements AutoCloseable {
    /** The controller's requests carry this User-Agent. */
    static final String CONTROLLER = "upshift-cluster-version";

    /**
     * The CRDs of the kinds the controller reads: its own, from deploy/crds, and the OpenShift
     * config kinds an OpenShift cluster serves (testkit's stand-ins), so that a test can create a
     * FeatureGate, a Proxy or mirror sets.
     */
    static final String[] CRDS = {
        "clusterversions.config.openshift.io",
        "clusteroperators.config.openshift.io",
        "featuregates.config.openshift.io",
        "proxies.config.openshift.io",
        "imagedigestmirrorsets.config.openshift.io",
        "imagetagmirrorsets.config.openshift.io",
        "imagecontentsourcepolicies.operator.openshift.io"
    };

    /**
     * With deploy/'s RBAC: the controller acts as its ServiceAccount, the test as the
     * administrator.
     */
    final ApiServer server;

    final KubernetesClient client;
    final FakePayloads payloads;
    private SharedIndexInformer<ConfigMap> settings;
    private SharedIndexInformer<ClusterOperator> operator;
    private volatile boolean operatorHeld;
    KubernetesClient controllerClient;
    ClusterVersionController controller;

    /** The controller's clock (and its update graph's), the wall's unless a test sets another. */
    Clock clock = Clock.systemUTC();

    /** What the controller tells of a Completed status before writing it; set before a start. */
    CompletionMirror mirror = CompletionMirror.NONE;

    ControllerHarness(Path dir) {
        this(dir, true);
    }

    /** With or without the ClusterVersion {@code version} an installer would have created. */
    ControllerHarness(Path dir, boolean clusterVersion) {
        this(dir, clusterVersion, ApiServers.start(CRDS).installRbac());
    }

    /**
     * The embedded API server, for a test of what only it can do: a faulty network in front of the
     * controller ({@link io.upshift.testkit.Faults}), fields dropped on write.
     */
    static ControllerHarness onEmbeddedServer(Path dir) {
        EmbeddedApiServer server = new EmbeddedApiServer().strict();
        return new ControllerHarness(dir, true, server.installCrds(CRDS).installRbac());
    }

    /** On {@code server}, which holds deploy/'s RBAC and the CRDs the test wants. */
    ControllerHarness(Path dir, boolean clusterVersion, ApiServer server) {
        this.server = server;
        this.client = server.client();
        payloads = new FakePayloads(dir);
        try {
            setUp(clusterVersion);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    private void setUp(boolean clusterVersion) {
        if (clusterVersion) {
            // a CRD the test just created is served within moments (404 until then)
            await("ClusterVersion created")
                    .atMost(Duration.ofSeconds(60))
                    .ignoreExceptionsMatching(
                            e -> e instanceof KubernetesClientException k && k.getCode() == 404)
                    .until(
                            () ->
                                    client.resources(ClusterVersion.class)
                                                    .resource(
                                                            new ClusterVersionBuilder()
                                                                    .withNewMetadata()
                                                                    .withName("version")
                                                                    .endMetadata()
                                                                    .withNewSpec()
                                                                    .withClusterID(
                                                                            "9f1c2b7e-3c2a-4d8e-a0f1-5b6c7d8e9f00")
                                                                    .withChannel("stable-4.1")
                                                                    .endSpec()
                                                                    .build())
                                                    .create()
                                            != null);
        }
        settings =
                client.configMaps()
                        .inNamespace("test-ns")
                        .withName("settings")
                        .inform(
                                new ResourceEventHandler<>() {
                                    @Override
                                    public void onAdd(ConfigMap cm) {
                                        report(cm);
                                    }

                                    @Override
                                    public void onUpdate(ConfigMap before, ConfigMap cm) {
                                        report(cm);
                                    }

                                    @Override
                                    public void onDelete(ConfigMap cm, boolean unknown) {}
                                });
        // as a real operator, it also reports when its ClusterOperator appears (created after its
        // ConfigMap, say)
        operator =
                client.resources(ClusterOperator.class)
                        .withName("test-operator")
                        .inform(
                                new ResourceEventHandler<>() {
                                    @Override
                                    public void onAdd(ClusterOperator co) {
                                        ConfigMap cm =
                                                settings.getStore().getByKey("test-ns/settings");
                                        if (cm != null) report(cm);
                                    }

                                    @Override
                                    public void onUpdate(
                                            ClusterOperator before, ClusterOperator co) {}

                                    @Override
                                    public void onDelete(ClusterOperator co, boolean unknown) {}
                                });
    }

    /**
     * Options for tests: short waits, a reconcile pass every 1-2 s, progress written at most every
     * 100 ms, and no default update graph (tests never reach the internet).
     */
    static ControllerOptions options(String ownRelease, Path cache) {
        return ControllerOptions.defaults(ownRelease, cache)
                .withTiming(Duration.ofSeconds(1), Duration.ofSeconds(1), Duration.ofMillis(100))
                .withDefaultUpstream(null);
    }

    ClusterVersionController start(ControllerOptions options) {
        return start(options, c -> client(c));
    }

    /**
     * Starts the controller with a client of its own, made by {@code clients} from the client of
     * its User-Agent's configuration.
     */
    ClusterVersionController start(
            ControllerOptions options, Function<Config, KubernetesClient> clients) {
        return start(options, clients, (c, egress) -> payloads);
    }

    /**
     * Starts the controller with the payload source {@code source} makes from the controller's
     * client and its way out (a real registry, say).
     */
    ClusterVersionController startWith(
            ControllerOptions options,
            BiFunction<KubernetesClient, Supplier<Egress>, PayloadSource> source) {
        return start(options, c -> client(c), source);
    }

    private ClusterVersionController start(
            ControllerOptions options,
            Function<Config, KubernetesClient> clients,
            BiFunction<KubernetesClient, Supplier<Egress>, PayloadSource> source) {
        controllerClient = clients.apply(server.config(CONTROLLER, ServiceAccount.UPSHIFT));
        RuleMatcher noPrometheus =
                rule -> {
                    throw new RuleMatcher.RuleException("no Prometheus here");
                };
        controller =
                new ClusterVersionController(
                        controllerClient,
                        options,
                        egress -> source.apply(controllerClient, egress),
                        new AvailableUpdatesSync(
                                new UpdateClient(Duration.ofSeconds(1), new SplittableRandom(1)),
                                noPrometheus,
                                clock,
                                options.architecture(),
                                options.defaultUpstream()),
                        clock);
        controller.mirrorCompletionTo(mirror);
        controller.start();
        return controller;
    }

    private static KubernetesClient client(Config c) {
        return new KubernetesClientBuilder().withConfig(c).build();
    }

    /** The test operator stops reporting (a rollout that does not finish), or reports again. */
    void holdOperator(boolean held) {
        operatorHeld = held;
        if (!held) {
            ConfigMap cm = settings.getStore().getByKey("test-ns/settings");
            if (cm != null) report(cm);
        }
    }

    private void report(ConfigMap cm) {
        if (operatorHeld || cm.getData() == null) return;
        try {
            report("test-operator", cm.getData().get("version"));
        } catch (KubernetesClientException e) {
            // not created yet: it reports when the ClusterOperator appears
        }
    }

    /**
     * The ClusterOperator {@code name} reports itself available, not degraded, at {@code version};
     * it must exist.
     */
    void report(String name, String version) {
        ClusterOperatorStatus status =
                new ClusterOperatorStatusBuilder()
                        .addNewVersion()
                        .withName("operator")
                        .withVersion(version)
                        .endVersion()
                        .addNewCondition()
                        .withType("Available")
                        .withStatus("True")
                        .withLastTransitionTime("2026-01-01T00:00:00Z")
                        .endCondition()
                        .addNewCondition()
                        .withType("Degraded")
                        .withStatus("False")
                        .withLastTransitionTime("2026-01-01T00:00:00Z")
                        .endCondition()
                        .build();
        // the controller may write the object (its manifest applied) between the read and the write
        Conflicts.retry(
                () ->
                        client.resources(ClusterOperator.class)
                                .withName(name)
                                .editStatus(
                                        co -> {
                                            co.setStatus(status);
                                            return co;
                                        }));
    }

    boolean operatorExists(String name) {
        return client.resources(ClusterOperator.class).withName(name).get() != null;
    }

    void requestUpdate(String version, String image, boolean force) {
        editSpec(
                spec -> {
                    var update = new Update();
                    update.setVersion(version);
                    update.setImage(image);
                    if (force) update.setForce(true);
                    spec.setDesiredUpdate(update);
                });
    }

    /**
     * ClusterVersion's spec changed as an administrator changes it, done again if the controller
     * wrote the object in between.
     */
    void editSpec(Consumer<ClusterVersionSpec> change) {
        Conflicts.retry(
                () ->
                        client.resources(ClusterVersion.class)
                                .withName("version")
                                .edit(
                                        cv -> {
                                            change.accept(cv.getSpec());
                                            return cv;
                                        }));
    }

    ClusterVersion clusterVersion() {
        return client.resources(ClusterVersion.class).withName("version").get();
    }

    /**
     * Waits until the controller ran one more pass over its task graph and a status sync that began
     * after that pass ended: whatever that pass wrote has landed. A test that claims nothing is
     * written, or a message stays, while the controller works checks it after such passes, however
     * slow the machine, rather than after some time.
     */
    void aPassWritten() {
        long p = controller.passes();
        await("a pass").atMost(Duration.ofMinutes(2)).until(() -> controller.passes() > p);
        long s = controller.syncs();
        await("its status synced")
                .atMost(Duration.ofMinutes(2))
                .until(() -> controller.syncs() >= s + 2);
    }

    /** {@link #aPassWritten()}, {@code n} times. */
    void passesWritten(int n) {
        for (int i = 0; i < n; i++) aPassWritten();
    }

    /** The embedded server, for a test that only it can serve. */
    EmbeddedApiServer embedded() {
        if (server instanceof EmbeddedApiServer e) return e;
        throw new IllegalStateException("this test needs the embedded API server");
    }

    ClusterOperatorStatusCondition condition(String type) {
        ClusterVersion cv = clusterVersion();
        return cv == null || cv.getStatus() == null
                ? null
                : Conditions.CLUSTER.find(cv.getStatus().getConditions(), type);
    }

    /** history[0] is {@code version}, Completed. */
    boolean completed(String version) {
        ClusterVersion cv = clusterVersion();
        if (cv == null
                || cv.getStatus() == null
                || cv.getStatus().getHistory() == null
                || cv.getStatus().getHistory().isEmpty()) return false;
        UpdateHistory top = cv.getStatus().getHistory().get(0);
        return version.equals(top.getVersion()) && "Completed".equals(top.getState());
    }

    /** The controller's requests so far that match. */
    List<RequestLog.Request> controllerRequests(Predicate<RequestLog.Request> which) {
        return server.requests().matching(r -> r.userAgent().equals(CONTROLLER) && which.test(r));
    }

    /** The controller's requests other than watches (reads its caches cannot serve, and writes). */
    int controllerCalls() {
        return controllerRequests(r -> !r.isWatch()).size();
    }

    Map<String, String> settingsData() {
        return client.configMaps().inNamespace("test-ns").withName("settings").get().getData();
    }

    @Override
    public void close() {
        if (controller != null) controller.kill();
        if (controllerClient != null) controllerClient.close();
        if (settings != null) settings.close();
        if (operator != null) operator.close();
        server.close();
    }
}
