package io.upshift.demo;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.Releases;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.SimulatedCluster;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * A cluster in this JVM, running the real controllers: the embedded API server, which enforces
 * deploy/'s RBAC as an install applies it (the controllers and agents act as its ServiceAccounts),
 * seeded with the given objects; the simulation of its kubelets and operators ({@link
 * SimulatedCluster}), whose kubelet of the controller's node runs the payload Jobs from the release
 * images; the given nodes, each with the real agent, and the real pool controller as the
 * machine-config operator ({@link DemoNodes}); and the cluster-version controller's pod ({@link
 * DemoController}). It knows no release of its own: the controller's settings name the release it
 * starts on, and any release image it is asked for is pulled as a node would.
 */
public final class DemoCluster implements AutoCloseable {

    /**
     * What the cluster is made of.
     *
     * @param workDir its files: the nodes' ({@code hosts/<node>}), the controller's pods' ({@code
     *     pods/}, {@code controller-N.log})
     * @param clock the cluster's time, for the simulation, the controllers and the agents
     * @param rolloutDelay a Deployment rolls out a random 0.5 to 1.5 times this after it changes; a
     *     node reboots in half of it
     * @param seed the simulation's random draws
     * @param objects created first, as they are (such as the ClusterVersion); a Namespace that is
     *     there already is left as it is
     * @param nodes registered next, each on a simulated host with its agent, rolled by the pool
     *     controller of the release whose {@value DemoPayloads#MACHINE_CONFIG} operator rolled out;
     *     none: that operator is simulated as any other
     * @param declaredOperators by release version, the versions each ClusterOperator of a real
     *     payload declares, which the simulation reports once the cluster works towards that
     *     release
     * @param operatorRollout how long each operator's rollout takes, by ClusterOperator name (null,
     *     or null for an operator: the random draw of {@code rolloutDelay})
     * @param reboot how long each node's host takes to reboot, by node name (null: half of {@code
     *     rolloutDelay})
     */
    public record Settings(
            Path workDir,
            Clock clock,
            Duration rolloutDelay,
            long seed,
            List<HasMetadata> objects,
            List<Node> nodes,
            Function<String, Map<String, Map<String, String>>> declaredOperators,
            Function<String, Duration> operatorRollout,
            Function<String, Duration> reboot) {
        public Settings {
            objects = List.copyOf(objects);
            nodes = List.copyOf(nodes);
        }

        /** Rollouts and reboots as {@code rolloutDelay} draws them. */
        public Settings(
                Path workDir,
                Clock clock,
                Duration rolloutDelay,
                long seed,
                List<HasMetadata> objects,
                List<Node> nodes,
                Function<String, Map<String, Map<String, String>>> declaredOperators) {
            this(workDir, clock, rolloutDelay, seed, objects, nodes, declaredOperators, null, null);
        }
    }

    private final EmbeddedApiServer server;
    private final KubernetesClient client;
    private final SimulatedCluster simulation;
    private final DemoNodes nodes;
    private final DemoController controller;
    private final Administrator admin;

    private DemoCluster(
            EmbeddedApiServer server,
            KubernetesClient client,
            SimulatedCluster simulation,
            DemoNodes nodes,
            DemoController controller,
            Clock clock) {
        this.server = server;
        this.client = client;
        this.simulation = simulation;
        this.nodes = nodes;
        this.controller = controller;
        this.admin = new Administrator(client, clock);
    }

    /**
     * Starts the API server with {@code settings}' objects and nodes, the simulation, then the
     * cluster-version controller; what started is stopped again when a step fails.
     *
     * @param log hears the controller's pods come and go, one line each
     */
    public static DemoCluster start(
            Settings settings, DemoController.Settings controllerSettings, Consumer<String> log) {
        EmbeddedApiServer server = new EmbeddedApiServer().installRbac();
        KubernetesClient client = null;
        DemoController controller = null;
        SimulatedCluster simulation = null;
        DemoNodes nodes = null;
        try {
            client = server.client();
            for (HasMetadata o : settings.objects()) {
                // deploy/'s namespaces are there already (installRbac), as on an installed cluster
                if (o instanceof Namespace
                        && client.namespaces().withName(o.getMetadata().getName()).get() != null)
                    continue;
                client.resource(o).create();
            }
            controller =
                    new DemoController(
                            server,
                            client,
                            settings.workDir(),
                            settings.clock(),
                            controllerSettings,
                            log);
            DemoController pod = controller;
            simulation =
                    new SimulatedCluster(
                                    client,
                                    settings.rolloutDelay(),
                                    settings.seed(),
                                    settings.clock(),
                                    controller::changed)
                            .selfReadyWhen(d -> pod.podReady())
                            .declaredOperators(settings.declaredOperators())
                            .rolloutTimes(
                                    settings.operatorRollout() == null
                                            ? operator -> null
                                            : settings.operatorRollout())
                            // the kubelet of the controller's node runs its payload Jobs: it pulls
                            // the release image, whose payload the Job copies, and keeps it for the
                            // controller's pod of that release
                            .runsPayloadJobs(
                                    (image, to) -> {
                                        new Releases(DockerCredentials.none(), false, w -> {})
                                                .extract(
                                                        ImageRef.parse(image),
                                                        to,
                                                        ImageStore.Progress.NONE);
                                        if (controllerSettings.releaseImagePods())
                                            ReleaseController.pullInBackground(
                                                    settings.workDir(), image);
                                    });
            if (!settings.nodes().isEmpty()) {
                nodes =
                        new DemoNodes(
                                        server,
                                        settings.workDir().resolve("hosts"),
                                        settings.nodes(),
                                        settings.reboot() != null
                                                ? settings.reboot()
                                                : node -> settings.rolloutDelay().dividedBy(2),
                                        settings.clock())
                                .start();
                simulation.handOver(DemoPayloads.MACHINE_CONFIG, nodes::release);
            }
            simulation.start();
            controller.start();
            return new DemoCluster(server, client, simulation, nodes, controller, settings.clock());
        } catch (RuntimeException | Error e) {
            if (controller != null) controller.close();
            if (simulation != null) simulation.close();
            if (nodes != null) nodes.close();
            if (client != null) client.close();
            server.close();
            throw e;
        }
    }

    /** The embedded API server: its request log, the faults it can inject, kubeconfigs for it. */
    public EmbeddedApiServer server() {
        return server;
    }

    /** A client of the cluster's administrator (group {@code system:masters}). */
    public KubernetesClient client() {
        return client;
    }

    /** What plays the cluster's kubelets and operators. */
    public SimulatedCluster simulation() {
        return simulation;
    }

    /** The nodes and their pool controller; empty when the cluster has none. */
    public Optional<DemoNodes> nodes() {
        return Optional.ofNullable(nodes);
    }

    /** The cluster-version controller's pod. */
    public DemoController controller() {
        return controller;
    }

    /** What the administrator asks and reads. */
    public Administrator admin() {
        return admin;
    }

    @Override
    public void close() {
        controller.close();
        simulation.close();
        if (nodes != null) nodes.close();
        client.close();
        server.close();
    }
}
