package io.upshift.clusterversion.controller;

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
 * The cluster-version controller on the embedded API server, with releases from {@link
 * FakePayloads} and one test operator: it reports the version its ConfigMap names on the
 * ClusterOperator {@code test-operator}, as a real operator reports what it rolled out, unless the
 * test holds it back.
 */
final class ControllerHarness implements AutoCloseable {
    /** The controller's requests carry this User-Agent. */
    static final String CONTROLLER = "upshift-cluster-version";

    /**
     * With deploy/'s RBAC: the controller acts as its ServiceAccount, the test as the
     * administrator.
     */
    final EmbeddedApiServer server = new EmbeddedApiServer().installRbac();

    final KubernetesClient client = server.client();
    final FakePayloads payloads;
    private final SharedIndexInformer<ConfigMap> settings;
    private final SharedIndexInformer<ClusterOperator> operator;
    private volatile boolean operatorHeld;
    KubernetesClient controllerClient;
    ClusterVersionController controller;

    /** The controller's clock (and its update graph's), the wall's unless a test sets another. */
    Clock clock = Clock.systemUTC();

    ControllerHarness(Path dir) {
        this(dir, true);
    }

    /** With or without the ClusterVersion {@code version} an installer would have created. */
    ControllerHarness(Path dir, boolean clusterVersion) {
        payloads = new FakePayloads(dir);
        if (clusterVersion)
            client.resources(ClusterVersion.class)
                    .resource(
                            new ClusterVersionBuilder()
                                    .withNewMetadata()
                                    .withName("version")
                                    .endMetadata()
                                    .withNewSpec()
                                    .withClusterID("9f1c2b7e-3c2a-4d8e-a0f1-5b6c7d8e9f00")
                                    .withChannel("stable-4.1")
                                    .endSpec()
                                    .build())
                    .create();
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

    ClusterOperatorStatusCondition condition(String type) {
        ClusterVersion cv = clusterVersion();
        return cv.getStatus() == null
                ? null
                : Conditions.CLUSTER.find(cv.getStatus().getConditions(), type);
    }

    /** history[0] is {@code version}, Completed. */
    boolean completed(String version) {
        ClusterVersion cv = clusterVersion();
        if (cv.getStatus() == null
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
        settings.close();
        operator.close();
        server.close();
    }
}
