package io.upshift.pools.model;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import io.upshift.api.json.Mappers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The pool controller's decision, from what its caches hold to what should be ({@link PoolPlan}),
 * as the machine-config controller's render and node controllers decide it. For each pool: render
 * the MachineConfigs its selector picks ({@link RenderedConfig}); create that config, or mark one
 * another release's controller rendered with the same content as this release's; point the pool at
 * it; pick the nodes that start updating now ({@link NodeSelection}: maxUnavailable, zone, age, the
 * controller's own node last; never in a paused pool or outside its maintenance window), each
 * through its pre-drain hook when the pool has one, and the pool's first only after its
 * before-workers hook ({@link HookProgress}); lift the update taint of nodes done (and past their
 * post-update hook); and compute its status ({@link PoolProgress}). Rendered configs that no pool
 * targets and no node runs or is told are deleted once unused for the grace period: a node slow to
 * report must still find the config it was given.
 */
public final class PoolDecision {
    private static final ObjectMapper JSON = Mappers.JSON;

    /**
     * What one pass decides from.
     *
     * @param releaseVersion the controller's release: it marks the configs it renders
     * @param controllerNode the node the controller runs on ("" when unknown): its pool updates it
     *     last
     * @param renderGrace how long an unused rendered config is kept
     * @param configs the MachineConfigs as the base configs' sync left them
     * @param templateFailure why the release's base configs did not render, or null: no pool is
     *     rendered then
     * @param unusedSince what the previous pass returned ({@link PoolPlan#unusedSince()})
     * @param pods the cluster's pods, for the pools' health gates ({@link HealthGates})
     * @param readings Prometheus's answers to the health gates' queries, by query ({@link
     *     PoolPlan#queries()}: what a pass asks for)
     * @param hooks what the pools' hooks read: their templates and Jobs
     */
    public record Input(
            String releaseVersion,
            String controllerNode,
            Duration renderGrace,
            List<MachineConfigPool> pools,
            List<MachineConfig> configs,
            String templateFailure,
            List<Node> nodes,
            Map<String, Instant> unusedSince,
            Instant now,
            List<Pod> pods,
            Map<String, GateReading> readings,
            Hooks hooks) {

        /** With no answer from Prometheus yet, and without hooks' templates or Jobs. */
        public Input(
                String releaseVersion,
                String controllerNode,
                Duration renderGrace,
                List<MachineConfigPool> pools,
                List<MachineConfig> configs,
                String templateFailure,
                List<Node> nodes,
                Map<String, Instant> unusedSince,
                Instant now,
                List<Pod> pods) {
            this(
                    releaseVersion,
                    controllerNode,
                    renderGrace,
                    pools,
                    configs,
                    templateFailure,
                    nodes,
                    unusedSince,
                    now,
                    pods,
                    Map.of(),
                    Hooks.NONE);
        }

        /** Without the cluster's pods: no pool's health gate matches. */
        public Input(
                String releaseVersion,
                String controllerNode,
                Duration renderGrace,
                List<MachineConfigPool> pools,
                List<MachineConfig> configs,
                String templateFailure,
                List<Node> nodes,
                Map<String, Instant> unusedSince,
                Instant now) {
            this(
                    releaseVersion,
                    controllerNode,
                    renderGrace,
                    pools,
                    configs,
                    templateFailure,
                    nodes,
                    unusedSince,
                    now,
                    List.of());
        }
    }

    /**
     * What the pools' hooks read ({@link PoolHooks}, {@link HookProgress}).
     *
     * @param namespace the controller's: the templates' ConfigMaps and the Jobs are there
     * @param configMaps that namespace's ConfigMaps, by name
     * @param jobs the hooks' Jobs there ({@value HookJob#LABEL}), by name
     * @param refused the Jobs the API server refused to create, by {@link HookJob#refusalKey}, with
     *     its answer: what the recorder met (a Job it would only be refused again is not created
     *     again until its template changes)
     */
    public record Hooks(
            String namespace,
            Map<String, ConfigMap> configMaps,
            Map<String, Job> jobs,
            Map<String, String> refused) {
        public static final Hooks NONE = new Hooks("", Map.of(), Map.of(), Map.of());
    }

    private PoolDecision() {}

    public static PoolPlan decide(Input in) {
        Map<String, String> versionOf = new HashMap<>();
        for (MachineConfig mc : in.configs()) {
            versionOf.put(
                    mc.getMetadata().getName(),
                    annotation(
                            mc.getMetadata().getAnnotations(),
                            NodeAnnotations.RELEASE_IMAGE_VERSION));
        }
        Map<String, List<Node>> members = PoolMembers.assign(in.pools(), in.nodes());
        List<PoolPlan.Pool> pools = new ArrayList<>();
        String controlPlane =
                RequiredPools.controlPlaneLag(
                        in.pools(), members, versionOf, in.releaseVersion(), in.controllerNode());
        for (MachineConfigPool pool : in.pools())
            pools.add(
                    pool(
                            in,
                            pool,
                            members.get(pool.getMetadata().getName()),
                            versionOf,
                            controlPlane));
        Map<String, Instant> unusedSince = new HashMap<>();
        List<String> deletions = unused(in, pools, unusedSince);
        return new PoolPlan(pools, deletions, unusedSince, members);
    }

    /**
     * @param versionOf each config's release, updated with the config this pool renders
     */
    private static PoolPlan.Pool pool(
            Input in,
            MachineConfigPool pool,
            List<Node> nodes,
            Map<String, String> versionOf,
            String controlPlane) {
        String name = pool.getMetadata().getName();
        String target =
                pool.getSpec() != null && pool.getSpec().getConfiguration() != null
                        ? Objects.requireNonNullElse(
                                pool.getSpec().getConfiguration().getName(), "")
                        : "";
        List<String> problems = new ArrayList<>();
        String renderError = in.templateFailure();
        PoolPlan.ConfigChange config = null;
        RenderedConfig newTarget = null;
        if (renderError == null) {
            try {
                RenderedConfig rendered = render(in, pool);
                config = configChange(in, pool, rendered, versionOf);
                versionOf.put(rendered.name(), in.releaseVersion());
                if (!rendered.name().equals(target)) {
                    newTarget = rendered;
                    target = rendered.name();
                }
            } catch (IllegalArgumentException e) {
                renderError = e.getMessage();
                problems.add("not rendered: " + renderError);
            }
        }

        List<PoolNode> view = new ArrayList<>();
        for (Node n : nodes) view.add(PoolMembers.view(n, in.controllerNode()));
        boolean paused = pool.getSpec() != null && Boolean.TRUE.equals(pool.getSpec().getPaused());
        String specError = null;
        int maxUnavailable = 1;
        MaintenanceWindow window = null;
        SoakTime soak = null;
        HealthGates gates = null;
        PoolHooks poolHooks = null;
        try {
            maxUnavailable = maxUnavailable(pool, view.size());
            window = window(pool);
            soak = SoakTime.of(pool);
            gates = HealthGates.of(pool);
            DrainRules.of(pool); // read by the agents; validated here so that a bad one holds all
            poolHooks =
                    PoolHooks.of(
                            pool,
                            in.hooks().namespace(),
                            in.hooks().configMaps(),
                            RequiredPools.isRequired(pool));
        } catch (IllegalArgumentException e) {
            specError = e.getMessage();
            problems.add("no node touched: " + specError);
        }
        Canaries canaries = null;
        boolean rollback = false;
        String halted = Canaries.halted(pool);
        if (specError == null) {
            try {
                canaries = Canaries.of(pool);
                rollback = Canaries.rollback(pool);
            } catch (IllegalArgumentException e) {
                specError = e.getMessage();
                problems.add("no node touched: " + specError);
            }
        }
        RolloutHold hold = null;
        List<PoolPlan.Tell> tell = new ArrayList<>();
        List<String> queries = List.of();
        String halt = null;
        boolean active = specError == null && !target.isEmpty() && !paused;
        HookProgress hooks =
                new HookProgress(
                        poolHooks,
                        pool,
                        in.hooks().namespace(),
                        target,
                        nodes,
                        view,
                        in.hooks().jobs(),
                        in.hooks().refused(),
                        active,
                        in.now());
        for (int i = 0; active && i < view.size(); i++) {
            PoolNode n = view.get(i);
            if (hooks.tellNow(n.name())) { // its pre-drain hook succeeded: it started before
                tell.add(new PoolPlan.Tell(nodes.get(i), target, UpdateTaint.added(nodes.get(i))));
                view.set(i, n.told(target));
            } else if (hooks.busy(n.name())) {
                view.set(i, n.told(target)); // counted as updating while its hook holds it
            }
        }
        String told = target;
        boolean due = view.stream().anyMatch(n -> !told.equals(n.desiredConfig()));
        if (active) hold = hooks.hold();
        if (active && due && hold == null) {
            boolean windowOpen = window == null || window.isOpen(in.now());
            if (windowOpen && gates != null) queries = gates.promql();
            HealthGates.Verdict gate =
                    gates == null || !windowOpen ? null : gates.check(in.pods(), in.readings());
            Canaries.Phase phase =
                    canaries == null
                            ? Canaries.Phase.OVER
                            : canaries.phase(view, target, soak, in.now());
            if (gate != null && gate.fired() && phase == Canaries.Phase.WATCHING)
                halt = canaries.haltMessage(view, target, gate.hold().message());
            hold = hold(window, NodeUpdateTime.of(nodes), gate, soak, view, target, in.now());
            if (hold == null && phase == Canaries.Phase.WATCHING)
                hold = canaries.hold(view, target);
            if (hold == null) hold = hooks.beforeWorkers(controlPlane);
            if (hold == null) {
                List<PoolNode> picked = NodeSelection.pick(view, target, maxUnavailable, false);
                if (phase != Canaries.Phase.OVER)
                    picked =
                            picked.subList(0, Math.min(picked.size(), canaries.room(view, target)));
                for (PoolNode p : picked) {
                    int i = view.indexOf(p);
                    Node node = nodes.get(i);
                    view.set(i, p.told(target));
                    if (!hooks.startsWithHook(p))
                        tell.add(new PoolPlan.Tell(node, target, UpdateTaint.added(node)));
                }
                hold = hooks.hold(); // a pre-drain hook started now
            }
        } else if (specError == null && paused && halted != null) {
            hold = halted(halted, rollback, view, target, maxUnavailable, nodes, tell);
        }
        List<PoolPlan.Untaint> untaint = new ArrayList<>();
        for (int i = 0; i < nodes.size(); i++) {
            Node node = nodes.get(i);
            if (view.get(i).done()
                    && UpdateTaint.on(node)
                    && !hooks.keepsTaint(node.getMetadata().getName()))
                untaint.add(new PoolPlan.Untaint(node, UpdateTaint.removed(node)));
        }

        PoolProgress progress =
                new PoolProgress(name, target, view, paused, renderError, specError, hold);
        MachineConfigPoolStatus status =
                progress.status(
                        pool.getStatus(),
                        Objects.requireNonNullElse(pool.getMetadata().getGeneration(), 0L),
                        in.now());
        if (JSON.valueToTree(status).equals(JSON.valueToTree(pool.getStatus()))) status = null;
        return new PoolPlan.Pool(
                pool,
                config,
                newTarget,
                tell,
                untaint,
                status,
                problems,
                gate(in, pool, progress, versionOf),
                hold,
                queries,
                halt,
                !paused && halted != null,
                new PoolPlan.HookJobs(hooks.create(), hooks.delete()));
    }

    private static void tell(
            List<PoolNode> picked,
            String config,
            List<PoolNode> view,
            List<Node> nodes,
            List<PoolPlan.Tell> tell) {
        for (PoolNode p : picked) {
            int i = view.indexOf(p);
            Node node = nodes.get(i);
            tell.add(new PoolPlan.Tell(node, config, UpdateTaint.added(node)));
            view.set(i, p.told(config));
        }
    }

    /**
     * A pool its canaries paused: held with the reason they gave; with a rollback asked for, its
     * canaries told the config the rest of the pool runs (maxUnavailable at a time).
     */
    private static RolloutHold halted(
            String halted,
            boolean rollback,
            List<PoolNode> view,
            String target,
            int maxUnavailable,
            List<Node> nodes,
            List<PoolPlan.Tell> tell) {
        if (!rollback)
            return new RolloutHold(
                    RolloutHold.CANARY_HALTED,
                    halted
                            + ". Unpause the pool to go on, or set "
                            + Canaries.ROLLBACK
                            + "=true to take the canaries back",
                    null);
        StringBuilder why = new StringBuilder();
        String previous = Canaries.previous(view, target, why);
        if (previous == null)
            return new RolloutHold(
                    RolloutHold.CANARY_HALTED,
                    halted + ". The canaries cannot be taken back: " + why,
                    null);
        tell(
                NodeSelection.pick(view, previous, maxUnavailable, false),
                previous,
                view,
                nodes,
                tell);
        List<String> back =
                Canaries.told(view, previous).stream()
                        .filter(n -> !(n.done() && previous.equals(n.currentConfig())))
                        .map(PoolNode::name)
                        .toList();
        return new RolloutHold(
                RolloutHold.CANARY_HALTED,
                halted
                        + (back.isEmpty()
                                ? ". The canaries are back on MachineConfig " + previous
                                : ". Taking the canaries back to MachineConfig "
                                        + previous
                                        + " ("
                                        + Canaries.ROLLBACK
                                        + "): "
                                        + String.join(", ", back)
                                        + " not back yet"),
                null);
    }

    /**
     * What holds the pool's next node, the first that does of: a closed maintenance window (or one
     * that closes before a node would be done, by the pool's measured node time), a health gate,
     * the soak of a node done with the target. Null when nothing does.
     */
    private static RolloutHold hold(
            MaintenanceWindow window,
            NodeUpdateTime nodeTime,
            HealthGates.Verdict gate,
            SoakTime soak,
            List<PoolNode> view,
            String target,
            Instant now) {
        if (window != null && !window.isOpen(now)) {
            Instant opens = window.nextOpening(now);
            return new RolloutHold(
                    RolloutHold.WINDOW,
                    "Waiting for the maintenance window \""
                            + window.text()
                            + "\" (opens "
                            + opens
                            + ") to update to MachineConfig "
                            + target,
                    opens);
        }
        if (window != null && nodeTime.mean() != null) {
            Instant start = window.nextStart(now, nodeTime.mean());
            if (start.isAfter(now))
                return new RolloutHold(
                        RolloutHold.WINDOW,
                        "A node would not finish before the maintenance window \""
                                + window.text()
                                + "\" closes at "
                                + window.closes(now)
                                + " (a node takes "
                                + nodeTime.describe()
                                + "): the next node starts when it opens again at "
                                + start
                                + ", to update to MachineConfig "
                                + target,
                        start);
        }
        if (gate != null) return gate.hold();
        return soak == null ? null : soak.hold(view, target, now);
    }

    /**
     * The pool's rendered config.
     *
     * @throws IllegalArgumentException when it does not render, or selects nothing, or selects a
     *     config another release's controller generated
     */
    private static RenderedConfig render(Input in, MachineConfigPool pool) {
        RenderedConfig rendered =
                RenderedConfig.render(
                        pool.getMetadata().getName(),
                        pool.getSpec() == null ? null : pool.getSpec().getMachineConfigSelector(),
                        in.configs());
        if (rendered.sources().isEmpty())
            throw new IllegalArgumentException(
                    "no MachineConfig matches the pool's machineConfigSelector");
        requireOwnRelease(in, rendered);
        return rendered;
    }

    /**
     * A config another release's controller generated is not rendered into a pool: it waits for
     * this release's (upstream's render controller refuses those of an older controller,
     * OCPBUGS-3821), so that a pool never gets a config that mixes two releases' base configs.
     */
    private static void requireOwnRelease(Input in, RenderedConfig rendered) {
        for (MachineConfig mc : in.configs()) {
            String by = annotation(mc.getMetadata().getAnnotations(), NodeAnnotations.GENERATED_BY);
            if (!by.isEmpty()
                    && !by.equals(in.releaseVersion())
                    && rendered.sources().contains(mc.getMetadata().getName())) {
                throw new IllegalArgumentException(
                        "ignoring MachineConfig "
                                + mc.getMetadata().getName()
                                + " generated by release "
                                + by
                                + "'s controller (this controller's release: "
                                + in.releaseVersion()
                                + ")");
            }
        }
    }

    /**
     * A rendered config that does not exist is created, owned by its pool; one that exists as
     * another release's is claimed: the same content rendered by another release's controller (a
     * release whose base configs did not change, or the previous controller rendered this release's
     * MachineConfigs before it was replaced) is what this release renders too, and must carry this
     * release's version, else the pool would never count as running this release. Upstream's render
     * controller does the same: it applies the config it generated over the pool's current one of
     * the same name, annotations and all.
     */
    private static PoolPlan.ConfigChange configChange(
            Input in,
            MachineConfigPool pool,
            RenderedConfig rendered,
            Map<String, String> versionOf) {
        String version = versionOf.get(rendered.name());
        if (version == null) {
            return new PoolPlan.Create(
                    new MachineConfigBuilder()
                            .withNewMetadata()
                            .withName(rendered.name())
                            .addToAnnotations(
                                    NodeAnnotations.RELEASE_IMAGE_VERSION, in.releaseVersion())
                            .addToAnnotations(NodeAnnotations.GENERATED_BY, in.releaseVersion())
                            .addNewOwnerReference()
                            .withApiVersion("machineconfiguration.openshift.io/v1")
                            .withKind("MachineConfigPool")
                            .withName(pool.getMetadata().getName())
                            .withUid(pool.getMetadata().getUid())
                            .withController(true)
                            .endOwnerReference()
                            .endMetadata()
                            .withSpec(rendered.spec())
                            .build(),
                    rendered.sources());
        }
        if (version.equals(in.releaseVersion())) return null;
        MachineConfig read =
                in.configs().stream()
                        .filter(c -> c.getMetadata().getName().equals(rendered.name()))
                        .findFirst()
                        .orElseThrow();
        return new PoolPlan.Claim(read, version, in.releaseVersion());
    }

    private static int maxUnavailable(MachineConfigPool pool, int nodes) {
        IntOrString max = pool.getSpec() == null ? null : pool.getSpec().getMaxUnavailable();
        return MaxUnavailable.resolve(
                max == null ? null : max.getIntVal() != null ? max.getIntVal() : max.getStrVal(),
                nodes);
    }

    /** The pool's maintenance window, or null when it has none. */
    private static MaintenanceWindow window(MachineConfigPool pool) {
        Map<String, String> a = pool.getMetadata().getAnnotations();
        String text = a == null ? null : a.get(MaintenanceWindow.ANNOTATION);
        return text == null ? null : MaintenanceWindow.parse(text);
    }

    /**
     * The pool for the gate. A node's version is the release that rendered the config it runs; a
     * node that runs none yet has none to tell.
     */
    private static PoolGate.Pool gate(
            Input in,
            MachineConfigPool pool,
            PoolProgress progress,
            Map<String, String> versionOf) {
        boolean released =
                progress.isUpdated()
                        && in.releaseVersion().equals(versionOf.get(progress.target()));
        boolean required = RequiredPools.isRequired(pool);
        Map<String, String> nodeVersions = new LinkedHashMap<>();
        for (PoolNode n : progress.nodes()) {
            if (!n.currentConfig().isEmpty())
                nodeVersions.put(n.name(), versionOf.getOrDefault(n.currentConfig(), ""));
        }
        Map<String, String> kubelets = new LinkedHashMap<>();
        for (Node n : in.nodes()) {
            String name = n.getMetadata().getName();
            if (nodeVersions.containsKey(name)) kubelets.put(name, kubeletVersion(n));
        }
        return new PoolGate.Pool(
                pool.getMetadata().getName(), progress, required, released, nodeVersions, kubelets);
    }

    /** {@code status.nodeInfo.kubeletVersion}, "" when the node reports none. */
    public static String kubeletVersion(Node n) {
        return n.getStatus() == null
                        || n.getStatus().getNodeInfo() == null
                        || n.getStatus().getNodeInfo().getKubeletVersion() == null
                ? ""
                : n.getStatus().getNodeInfo().getKubeletVersion();
    }

    /**
     * The rendered configs to delete now: unused (no pool's spec or status names them, no node runs
     * or is told them, as this pass leaves the nodes) for the grace period. {@code since} is filled
     * with when each of the others became unused.
     */
    private static List<String> unused(
            Input in, List<PoolPlan.Pool> pools, Map<String, Instant> since) {
        Set<String> used = new HashSet<>();
        for (MachineConfigPool p : in.pools()) {
            if (p.getSpec() != null && p.getSpec().getConfiguration() != null)
                used.add(p.getSpec().getConfiguration().getName());
            if (p.getStatus() != null && p.getStatus().getConfiguration() != null)
                used.add(p.getStatus().getConfiguration().getName());
        }
        for (PoolPlan.Pool p : pools) {
            for (PoolNode n : p.gate().progress().nodes()) {
                used.add(n.currentConfig());
                used.add(n.desiredConfig());
            }
        }
        List<String> deletions = new ArrayList<>();
        for (MachineConfig mc : in.configs()) {
            String name = mc.getMetadata().getName();
            if (!name.startsWith(RenderedConfig.PREFIX) || used.contains(name)) continue;
            Instant from = in.unusedSince().getOrDefault(name, in.now());
            if (in.now().isBefore(from.plus(in.renderGrace()))) since.put(name, from);
            else deletions.add(name);
        }
        return deletions;
    }

    private static String annotation(Map<String, String> annotations, String key) {
        return annotations == null ? "" : annotations.getOrDefault(key, "");
    }
}
