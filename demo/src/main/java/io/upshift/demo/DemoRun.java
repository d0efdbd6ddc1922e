package io.upshift.demo;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.upshift.base.version.SemVer;
import io.upshift.clusterversion.controller.ControllerOptions;
import io.upshift.releases.image.ControllerDeployment;
import io.upshift.releases.metadata.ReleaseException;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * The demo: two signed releases ({@link DemoReleases}) and a cluster ({@link DemoCluster}) whose
 * real cluster-version controller installs the first; then the update to the second, and after it a
 * config change on every node. Used by {@code upshift demo}, the end-to-end tests and the
 * benchmarks.
 */
public final class DemoRun implements AutoCloseable {

    /**
     * Demo settings: {@code operators} simulated components over {@code runLevels} run-levels, each
     * a Deployment rolling out in about {@code rolloutDelay}; {@code masters} and {@code workers}
     * nodes are rolled by the real pool controller and node agents (none: the machine-config
     * component is left out). With a {@code payload} directory (a real release's), the demo's
     * releases are that payload and its next patch, every ClusterOperator it declares simulated; it
     * has no nodes then (a real payload's machine configs are rendered by the machine-config
     * operator, not shipped).
     *
     * @param selfHosting Upshift's jar: the releases are built on Upshift's image (from it and the
     *     {@code lib/} beside it), and the controller that takes over when its Deployment changes
     *     is the new release's own code, read out of its image and run as that Deployment's pod;
     *     null: every controller runs in this JVM
     * @param firstReleaseCrd a ClusterVersion CRD (an older release's) for the first release to
     *     carry instead of Upshift's; null: Upshift's
     * @param controllerOptions adjusts the options of the controller running in this JVM
     * @param controllerClient adjusts the configuration of its API client
     */
    public record Settings(
            int operators,
            int runLevels,
            Duration rolloutDelay,
            long seed,
            Path workDir,
            int masters,
            int workers,
            Path payload,
            Path selfHosting,
            Path firstReleaseCrd,
            UnaryOperator<ControllerOptions> controllerOptions,
            UnaryOperator<ConfigBuilder> controllerClient) {

        public Settings(
                int operators, int runLevels, Duration rolloutDelay, long seed, Path workDir) {
            this(operators, runLevels, rolloutDelay, seed, workDir, 0, 0);
        }

        public Settings(
                int operators,
                int runLevels,
                Duration rolloutDelay,
                long seed,
                Path workDir,
                int masters,
                int workers) {
            this(
                    operators,
                    runLevels,
                    rolloutDelay,
                    seed,
                    workDir,
                    masters,
                    workers,
                    null,
                    null,
                    null,
                    o -> o,
                    c -> c);
        }

        /** The releases copy the payload directory {@code dir} (no nodes then). */
        public Settings withPayload(Path dir) {
            return new Settings(
                    operators,
                    runLevels,
                    rolloutDelay,
                    seed,
                    workDir,
                    masters,
                    workers,
                    dir,
                    selfHosting,
                    firstReleaseCrd,
                    controllerOptions,
                    controllerClient);
        }

        /** The releases are built on the image of Upshift's {@code jar} and run their own code. */
        public Settings withSelfHosting(Path jar) {
            return new Settings(
                    operators,
                    runLevels,
                    rolloutDelay,
                    seed,
                    workDir,
                    masters,
                    workers,
                    payload,
                    jar,
                    firstReleaseCrd,
                    controllerOptions,
                    controllerClient);
        }

        /** The first release carries {@code crd} as its ClusterVersion CRD. */
        public Settings withFirstReleaseCrd(Path crd) {
            return new Settings(
                    operators,
                    runLevels,
                    rolloutDelay,
                    seed,
                    workDir,
                    masters,
                    workers,
                    payload,
                    selfHosting,
                    crd,
                    controllerOptions,
                    controllerClient);
        }

        public Settings withControllerOptions(UnaryOperator<ControllerOptions> options) {
            return new Settings(
                    operators,
                    runLevels,
                    rolloutDelay,
                    seed,
                    workDir,
                    masters,
                    workers,
                    payload,
                    selfHosting,
                    firstReleaseCrd,
                    options,
                    controllerClient);
        }

        public Settings withControllerClient(UnaryOperator<ConfigBuilder> client) {
            return new Settings(
                    operators,
                    runLevels,
                    rolloutDelay,
                    seed,
                    workDir,
                    masters,
                    workers,
                    payload,
                    selfHosting,
                    firstReleaseCrd,
                    controllerOptions,
                    client);
        }

        boolean hasNodes() {
            return payload == null && masters + workers > 0;
        }
    }

    public static final String FROM = "4.18.1";

    public static final String TO = "4.18.2";

    private final Settings settings;
    private final Consumer<String> log;
    private final Clock clock = Clock.systemUTC();
    private final List<DemoPayloads.Component> components;
    private final ReleasePayloads payloads;
    private DemoReleases releases;
    private String releaseA, releaseB;
    private DemoCluster cluster;

    /**
     * @param log hears the steps of building the releases and of the controller's pods, one line
     *     each
     * @throws ReleaseException when the settings name a payload directory that is none
     */
    public DemoRun(Settings settings, Consumer<String> log) throws ReleaseException {
        this.settings = settings;
        this.log = log;
        this.components =
                DemoPayloads.components(
                        settings.operators(), settings.runLevels(), settings.hasNodes());
        this.payloads =
                settings.payload() != null
                        ? new PayloadCopies(settings.payload())
                        : new SimulatedPayloads(
                                components,
                                settings.firstReleaseCrd() == null
                                        ? Map.of()
                                        : Map.of(FROM, settings.firstReleaseCrd()));
    }

    /** The release installed first. */
    public String from() {
        return payloads.from();
    }

    /** The release the demo updates to. */
    public String to() {
        return payloads.to();
    }

    /** True when the demo runs a real payload rather than its own simulated components. */
    public boolean realPayload() {
        return payloads instanceof PayloadCopies;
    }

    /**
     * Builds and signs both releases, then starts the cluster, whose controller installs the first.
     */
    public DemoRun start() throws Exception {
        if (cluster != null) throw new IllegalStateException("the demo has started already");
        releases =
                DemoReleases.create(
                        settings.workDir(), clock, payloads, settings.selfHosting(), log);
        long t0 = System.nanoTime();
        releaseA = releases.publish(from(), List.of(), true);
        releaseB = releases.publish(to(), List.of(from()), true);
        log.accept(
                String.format(
                        "built and signed %s and %s in %.1f s; starting the embedded API server and"
                                + " the simulated cluster",
                        from(), to(), (System.nanoTime() - t0) / 1e9));
        cluster =
                DemoCluster.start(
                        new DemoCluster.Settings(
                                settings.workDir(),
                                clock,
                                settings.rolloutDelay(),
                                settings.seed(),
                                List.of(clusterVersion()),
                                nodes(),
                                releases::declaredOperators),
                        DemoController.Settings.of(releaseA)
                                .withReleaseImagePods(settings.selfHosting() != null)
                                .withOptions(settings.controllerOptions())
                                .withClient(settings.controllerClient()),
                        log);
        return this;
    }

    /**
     * The cluster before its install: a ClusterVersion of its own ID, on the first release's
     * channel.
     */
    private HasMetadata clusterVersion() {
        SemVer v = SemVer.parse(from());
        return new ClusterVersionBuilder()
                .withNewMetadata()
                .withName("version")
                .endMetadata()
                .withNewSpec()
                .withClusterID(UUID.randomUUID().toString())
                .withChannel("stable-" + v.major() + "." + v.minor())
                .endSpec()
                .build();
    }

    private List<Node> nodes() {
        return settings.hasNodes()
                ? DemoNodes.machines(settings.masters(), settings.workers(), clock.instant())
                : List.of();
    }

    /** Where the releases are made; more of them can be published there. */
    public DemoReleases releases() {
        return releases;
    }

    /** The first release's pullspec. */
    public String releaseA() {
        return releaseA;
    }

    /** The second release's pullspec. */
    public String releaseB() {
        return releaseB;
    }

    public DemoCluster cluster() {
        return cluster;
    }

    /** What the cluster's administrator asks and reads. */
    public Administrator admin() {
        return cluster.admin();
    }

    /** Asks for the update to the second release, by version and image. */
    public void requestUpdate() {
        admin().requestUpdate(to(), releaseB, false);
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
        DemoNodes nodes =
                cluster.nodes()
                        .orElseThrow(
                                () -> new IllegalStateException("the demo has no nodes to change"));
        return new ConfigChange(cluster.client(), nodes, clock).run(to(), timeout, tick);
    }

    /**
     * After the update: a canary in the worker pool stopped by a health gate, taken back, then the
     * change rolled out ({@link CanaryRun}); {@code say} gets one line per step and {@code tick} is
     * called about twice a second.
     *
     * @throws IllegalStateException when a step does not happen in time
     */
    public void canary(Duration timeout, java.util.function.Consumer<String> say, Runnable tick)
            throws InterruptedException {
        new CanaryRun(cluster.client(), clock, say).run(timeout, tick);
    }

    /**
     * The least time the simulated work of the update needs: the controller's own rollout, then
     * run-levels in series, each as slow as its slowest rollout. The machine-config operator
     * reports the version only once the control-plane pool has rolled out after it: the pool
     * controller of the new release, which renders the new configs, starts once the operator's
     * Deployment has rolled out ({@link DemoNodes#release}; the outgoing one leaves another
     * release's templates alone), and then the pool's nodes reboot one at a time.
     */
    public Duration criticalPath() {
        Map<String, Duration> after =
                cluster.nodes()
                        .map(n -> Map.of(DemoPayloads.MACHINE_CONFIG, n.controlPlaneRollout()))
                        .orElse(Map.of());
        var simulation = cluster.simulation();
        long total =
                simulation
                        .rollout(ControllerDeployment.NAMESPACE, ControllerDeployment.NAME, TO)
                        .toMillis();
        Map<Integer, Long> slowest = new TreeMap<>();
        for (DemoPayloads.Component c : components) {
            long ms =
                    simulation.rollout(c.namespace(), c.operator(), TO).toMillis()
                            + after.getOrDefault(c.name(), Duration.ZERO).toMillis();
            slowest.merge(c.runLevel(), ms, Math::max);
        }
        for (long ms : slowest.values()) total += ms;
        return Duration.ofMillis(total);
    }

    @Override
    public void close() {
        if (cluster != null) cluster.close();
    }
}
