package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.base.conditions.Conditions;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.PoolMembers;
import io.upshift.rehearsal.model.Blocker;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.rehearsal.model.Durations;
import io.upshift.rehearsal.model.Stalls;
import io.upshift.rehearsal.model.Target;
import io.upshift.rehearsal.simulation.Simulator;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.Releases;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import io.upshift.status.estimate.ControlPlaneEstimate;
import io.upshift.status.estimate.RunLevelTimes;
import io.upshift.status.reader.ClusterReader;
import io.upshift.testkit.SimulatedCluster;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * A rehearsal's simulation: the cluster as read, seeded into an embedded API server ({@link
 * DemoCluster}, {@link SeededCluster}) with its nodes on simulated hosts; the real cluster-version
 * controller of the release it runs, the real pool controller of the target release from the
 * machine-config run-level on, the real node agents draining through evictions that honour the
 * budgets, the workload controllers making evicted pods again elsewhere ({@link Workloads}); each
 * operator rolling out in its run-level's time and each host rebooting in its pool's node time,
 * both divided by the speed-up. The update is asked for as an administrator would; a refusal by the
 * controller is recorded and the update asked for again with force, so that the rest is rehearsed.
 * It ends when the update is done, nothing has moved for a while (a stall), or the timeout passes;
 * the timeline is then read from what the controllers and agents recorded ({@link
 * SimulatedTimeline}).
 */
public final class RehearsalSimulator implements Simulator {
    static final String WHO = " (in the simulation)";

    @Override
    public Simulated simulate(Request r) throws Exception {
        Instant began = Instant.now();
        Files.createDirectories(r.work());
        ClusterFacts facts = r.facts();
        Target target = r.target();
        double k = r.speedup();
        Payload payload =
                PayloadLoader.load(r.payload(), target.image(), LoadRules.defaults(), w -> {});
        List<Node> nodes = SeededCluster.nodes(facts);
        boolean rollsNodes = !nodes.isEmpty() && Stalls.rollsNodes(target);
        boolean ownOperator = machineConfigDeployment(payload);
        Map<String, Map<String, String>> declared =
                new LinkedHashMap<>(PayloadCopies.declared(payload));
        // with nodes, the machine-config operator is the real pool controller: it reports itself
        if (!nodes.isEmpty()) declared.remove(ControlPlaneEstimate.MACHINE_CONFIG);
        Map<String, String> levelOf = new HashMap<>();
        for (RunLevelTimes.Level l : target.levels())
            for (String op : l.operators()) levelOf.putIfAbsent(op, l.runLevel());
        Durations d = r.durations();
        Function<String, Duration> rollout =
                op -> {
                    String level = levelOf.get(op);
                    Duration took = level == null ? null : d.runLevels().get(level);
                    return took == null ? null : scaled(took, k);
                };
        Map<String, String> poolOf = new HashMap<>();
        PoolMembers.assign(facts.state().pools(), nodes)
                .forEach(
                        (pool, ns) -> ns.forEach(n -> poolOf.put(n.getMetadata().getName(), pool)));
        Function<String, Duration> reboot =
                node -> scaled(d.nodes().getOrDefault(poolOf.get(node), Durations.DEFAULT_NODE), k);
        DemoCluster.Settings settings =
                new DemoCluster.Settings(
                        r.work(),
                        Clock.systemUTC(),
                        plainRollout(target, d, k),
                        1,
                        SeededCluster.objects(facts, rollsNodes && !ownOperator),
                        nodes,
                        version -> version.equals(target.version()) ? declared : Map.of(),
                        rollout,
                        reboot);
        r.progress()
                .accept(
                        "seeding an embedded copy of the cluster: "
                                + nodes.size()
                                + " nodes, "
                                + facts.pods().size()
                                + " pods");
        List<Blocker> seen = new ArrayList<>();
        try (DemoCluster cluster =
                        DemoCluster.start(
                                settings,
                                DemoController.Settings.of(facts.currentImage())
                                        .withReleaseImagePods(selfHosting(target.image())),
                                // the copy's kubelet: its controller pod replaced, or crash-looping
                                // (a back-off the timeline then counts), said as it happens
                                line -> r.progress().accept("in the copy: " + line));
                Workloads workloads = new Workloads(cluster.client()).start()) {
            KubernetesClient client = cluster.client();
            // an operator rolls out once the controller got to its run-level
            Set<String> reached = ConcurrentHashMap.newKeySet();
            cluster.simulation()
                    .declaredOperatorsStartWhen(
                            op -> levelOf.get(op) == null || reached.contains(levelOf.get(op)));
            Instant deadline = began.plus(r.timeout());
            while (cluster.controller().passes() < 1) {
                if (Instant.now().isAfter(deadline))
                    throw new IllegalStateException(
                            "the copy's controller made no pass over " + facts.currentImage());
                Thread.sleep(100);
            }
            r.progress().accept("asking the copy for the update to " + target.version());
            Instant asked = Instant.now();
            cluster.admin().requestUpdate(target.version(), target.image(), false);
            boolean forced = false, released = false;
            // a busy machine slows the controllers' own work, which is not scaled: 15 s at least
            Duration quiet = Duration.ofSeconds(15).plus(longestStep(d, k).multipliedBy(2));
            String last = "";
            Instant lastMove = Instant.now();
            Takeover takeover = new Takeover(cluster);
            while (true) {
                Thread.sleep(200);
                ClusterVersion cv = cluster.admin().clusterVersion();
                RunLevelTimes times = RunLevelTimes.of(cv);
                if (times != null && target.image().equals(times.image()))
                    times.levels().stream()
                            .filter(l -> l.startedAt() != null)
                            .forEach(l -> reached.add(l.runLevel()));
                ClusterOperatorStatusCondition accepted =
                        Conditions.CLUSTER.find(cv.getStatus().getConditions(), "ReleaseAccepted");
                if (!forced && accepted != null && "False".equals(accepted.getStatus())) {
                    seen.add(
                            Blocker.refuses(
                                    "cluster-version controller" + WHO,
                                    accepted.getReason(),
                                    accepted.getMessage()));
                    r.progress()
                            .accept(
                                    "the copy's controller refused the update: asking again with"
                                            + " force");
                    cluster.admin().requestUpdate(target.version(), target.image(), true);
                    asked = Instant.now();
                    forced = true;
                }
                if (rollsNodes && !ownOperator && !released && machineConfigStarted(cv, target)) {
                    newOsImage(client, target.version());
                    cluster.nodes().ifPresent(n -> n.release(target.version()));
                    released = true;
                }
                List<Node> now = client.nodes().list().getItems();
                if (cluster.admin().completed(target.version())
                        && (!rollsNodes || nodesDone(client, now, asked))) break;
                String state = signature(cv, now);
                if (takeover.underWay(state) || !state.equals(last)) {
                    last = state;
                    lastMove = Instant.now();
                } else if (Duration.between(lastMove, Instant.now()).compareTo(quiet) > 0) {
                    r.progress()
                            .accept(
                                    "nothing moved in the copy for "
                                            + quiet.toSeconds()
                                            + " s: it stalls");
                    break;
                }
                if (Instant.now().isAfter(deadline)) {
                    r.progress()
                            .accept("the simulation's time is up (--timeout " + r.timeout() + ")");
                    break;
                }
            }
            ClusterVersion cv = cluster.admin().clusterVersion();
            List<MachineConfigPool> pools =
                    client.resources(MachineConfigPool.class).list().getItems();
            List<Node> finalNodes = client.nodes().list().getItems();
            seen.addAll(stalls(client, cv, finalNodes, pools));
            Duration wall = Duration.between(began, Instant.now());
            String how =
                    String.format(
                            Locale.ROOT,
                            "the real cluster-version controller, pool controller and node agents"
                                + " on an embedded copy of the cluster (%d nodes, %d pods), the"
                                + " work %.0f× faster than the durations below, in %.1f s; each"
                                + " step takes its duration plus the controllers' own time in the"
                                + " simulation%s",
                            nodes.size(),
                            facts.pods().size(),
                            k,
                            wall.toMillis() / 1000.0,
                            forced ? "; asked again with force after the controller refused" : "");
            return new Simulated(
                    SimulatedTimeline.of(
                            cv,
                            pools,
                            finalNodes,
                            target.image(),
                            asked,
                            d,
                            k,
                            "simulated: " + how),
                    seen,
                    how,
                    wall,
                    cluster.server().requests().size());
        }
    }

    /**
     * The controller's pod being replaced: from the moment the copy's kubelet replaces it until
     * what shows progress moves again, at most {@link #STARTING}. A controller started from the
     * release's image (a JVM of its own, its Lease taken, its informers synced, the payload read
     * again) is quiet for a while, longer on a busy machine, and that is not a stall.
     */
    private static final class Takeover {
        static final Duration STARTING = Duration.ofMinutes(2);
        private final DemoCluster cluster;
        private int restarts;
        private String from;
        private Instant since;

        Takeover(DemoCluster cluster) {
            this.cluster = cluster;
            this.restarts = cluster.controller().restarts();
        }

        /** Whether a takeover is under way, {@code state} being what shows progress now. */
        boolean underWay(String state) {
            int now = cluster.controller().restarts();
            if (now != restarts) {
                restarts = now;
                from = state;
                since = Instant.now();
            } else if (since != null
                    && (!state.equals(from)
                            || Duration.between(since, Instant.now()).compareTo(STARTING) > 0)) {
                since = null;
            }
            return since != null;
        }
    }

    /**
     * The release is laid on Upshift's image, so that the controller taking over mid-update runs
     * the release's own code from it, as on a real cluster; else (a payload alone, or another
     * vendor's controller) the controller in this JVM takes over.
     */
    private static boolean selfHosting(String image) {
        try {
            return !new Releases(DockerCredentials.none(), false, w -> {})
                    .info(ImageRef.parse(image))
                    .base()
                    .isEmpty();
        } catch (ReleaseException e) {
            return false;
        }
    }

    /**
     * The payload's machine-config operator is a Deployment the simulation rolls out (the demo's).
     */
    private static boolean machineConfigDeployment(Payload payload) {
        for (Manifest m : payload.manifests()) {
            if (!"Deployment".equals(m.kind())) continue;
            if (ControlPlaneEstimate.MACHINE_CONFIG.equals(
                    m.object()
                            .path("metadata")
                            .path("labels")
                            .path(SimulatedCluster.OPERATOR_LABEL)
                            .asText())) return true;
        }
        return false;
    }

    private static boolean machineConfigStarted(ClusterVersion cv, Target target) {
        String level = target.runLevelOf(ControlPlaneEstimate.MACHINE_CONFIG);
        RunLevelTimes times = RunLevelTimes.of(cv);
        if (times == null || !target.image().equals(times.image())) return false;
        return times.levels().stream()
                .anyMatch(l -> l.runLevel().equals(level) && l.startedAt() != null);
    }

    /**
     * The target release's OS image in each pool's base config, as the release's machine-config
     * operator would bring it.
     */
    private static void newOsImage(KubernetesClient client, String version) {
        for (MachineConfig mc : client.resources(MachineConfig.class).list().getItems()) {
            if (!mc.getMetadata().getName().endsWith("-rehearsal")) continue;
            String os = mc.getSpec().getOsImageURL() == null ? "" : mc.getSpec().getOsImageURL();
            mc.getSpec().setOsImageURL(os.replaceFirst("#.*$", "") + "#rehearsal-" + version);
            client.resources(MachineConfig.class).resource(mc).update();
        }
    }

    /** Every node of an unpaused pool was done with an update since it was asked for. */
    private static boolean nodesDone(KubernetesClient client, List<Node> nodes, Instant asked) {
        List<MachineConfigPool> pools = client.resources(MachineConfigPool.class).list().getItems();
        Map<String, List<Node>> members = PoolMembers.assign(pools, nodes);
        for (MachineConfigPool p : pools) {
            if (p.getSpec() != null && Boolean.TRUE.equals(p.getSpec().getPaused())) continue;
            for (Node n : members.get(p.getMetadata().getName())) {
                Map<String, String> a = n.getMetadata().getAnnotations();
                if (a == null || !NodeAnnotations.DONE.equals(a.get(NodeAnnotations.STATE)))
                    return false;
                String done = a.get(NodeAnnotations.UPDATE_DONE_AT),
                        started = a.get(NodeAnnotations.UPDATE_STARTED_AT);
                if (done == null || started == null) return false;
                if (Instant.parse(done).isBefore(asked)
                        || Instant.parse(done).isBefore(Instant.parse(started))) return false;
            }
        }
        return true;
    }

    /** What shows progress: the run-level times, history, and each node's state and times. */
    private static String signature(ClusterVersion cv, List<Node> nodes) {
        StringBuilder b = new StringBuilder();
        RunLevelTimes t = RunLevelTimes.of(cv);
        b.append(t == null ? "" : t.toAnnotation());
        if (cv.getStatus().getHistory() != null && !cv.getStatus().getHistory().isEmpty())
            b.append(cv.getStatus().getHistory().get(0).getState());
        for (Node n : nodes) {
            Map<String, String> a = n.getMetadata().getAnnotations();
            if (a == null) continue;
            b.append(n.getMetadata().getName())
                    .append(a.get(NodeAnnotations.STATE))
                    .append(a.get(NodeAnnotations.UPDATE_STARTED_AT))
                    .append(a.get(NodeAnnotations.UPDATE_DONE_AT));
        }
        return b.toString();
    }

    /** What the copy's controllers and agents said stalled it, in their words. */
    private static List<Blocker> stalls(
            KubernetesClient client,
            ClusterVersion cv,
            List<Node> nodes,
            List<MachineConfigPool> pools) {
        List<Blocker> out = new ArrayList<>();
        Map<String, String> poolOf = new HashMap<>();
        PoolMembers.assign(pools, nodes)
                .forEach(
                        (pool, ns) -> ns.forEach(n -> poolOf.put(n.getMetadata().getName(), pool)));
        Map<String, String> drainBlocked = new LinkedHashMap<>();
        for (Event e : ClusterReader.drainEvents(client))
            if (e.getInvolvedObject() != null)
                drainBlocked.putIfAbsent(e.getInvolvedObject().getName(), e.getMessage());
        drainBlocked.forEach(
                (node, message) ->
                        out.add(
                                Blocker.stalls(
                                        "node agent" + WHO,
                                        "DrainBlocked",
                                        message,
                                        Blocker.Place.nodes(
                                                poolOf.getOrDefault(node, ""), List.of(node)))));
        for (Node n : nodes) {
            Map<String, String> a = n.getMetadata().getAnnotations();
            if (a != null && NodeAnnotations.DEGRADED.equals(a.get(NodeAnnotations.STATE)))
                out.add(
                        Blocker.stalls(
                                "node agent" + WHO,
                                "NodeDegraded",
                                a.getOrDefault(NodeAnnotations.REASON, ""),
                                Blocker.Place.nodes(
                                        poolOf.getOrDefault(n.getMetadata().getName(), ""),
                                        List.of(n.getMetadata().getName()))));
        }
        ClusterOperatorStatusCondition failing =
                Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Failing");
        if (failing != null && "True".equals(failing.getStatus()))
            out.add(
                    Blocker.stalls(
                            "cluster-version controller" + WHO,
                            failing.getReason(),
                            failing.getMessage(),
                            Blocker.Place.NOWHERE));
        return out;
    }

    private static Duration longestStep(Durations d, double k) {
        Duration longest = Duration.ZERO;
        for (Duration x : d.runLevels().values()) if (x.compareTo(longest) > 0) longest = x;
        for (Duration x : d.nodes().values()) if (x.compareTo(longest) > 0) longest = x;
        return scaled(longest, k);
    }

    /**
     * How long a Deployment that is no operator's takes to roll out (the controller's own): a
     * run-level without operators' time on average, else 2 s.
     */
    private static Duration plainRollout(Target target, Durations d, double k) {
        long[] sum = {0, 0};
        for (RunLevelTimes.Level l : target.levels()) {
            Duration x = d.runLevels().get(l.runLevel());
            if (l.operators().isEmpty() && x != null) {
                sum[0] += x.toMillis();
                sum[1]++;
            }
        }
        return sum[1] == 0 ? Duration.ofSeconds(2) : scaled(Duration.ofMillis(sum[0] / sum[1]), k);
    }

    static Duration scaled(Duration d, double k) {
        return Duration.ofMillis(Math.round(d.toMillis() / k));
    }
}
