package io.upshift.pools.controller;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Taint;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolStatus;
import io.upshift.api.json.Mappers;
import io.upshift.pools.model.MaintenanceWindow;
import io.upshift.pools.model.MaxUnavailable;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.NodeSelection;
import io.upshift.pools.model.PoolGate;
import io.upshift.pools.model.PoolMembers;
import io.upshift.pools.model.PoolNode;
import io.upshift.pools.model.PoolProgress;
import io.upshift.pools.model.RenderedConfig;
import io.upshift.pools.model.RequiredPools;
import io.upshift.pools.templates.BaseConfigs;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.kube.Debouncer;
import io.upshift.runtime.kube.Informers;
import io.upshift.runtime.kube.MergePatch;
import io.upshift.runtime.kube.ParallelWrites;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The machine-config pool controller: it renders its release's base MachineConfigs from the
 * templates the payload ships ({@link BaseConfigSync}), then for each MachineConfigPool it renders
 * the selected MachineConfigs into the pool's target config, tells nodes to update to it (at most
 * maxUnavailable at a time, inside the maintenance window, never in a paused pool), and reports the
 * pool's status; then it reports the machine-config ClusterOperator, whose Upgradeable condition
 * gates the next minor update, and the cluster's MachineConfiguration with the node disruption
 * policies in force; each pool member has a MachineConfigNode ({@link MachineConfigNodeWriter}), in
 * which its agent reports its updates. Every pass starts from what the caches hold: the controller
 * keeps no state that a restart would lose, except how long a rendered config has been unused (a
 * restart only delays its removal) and since when the required pools hold the release back (a
 * restart begins that wait again, as upstream's operator does).
 */
public final class PoolController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);
    private static final ObjectMapper JSON = Mappers.JSON;

    private final KubernetesClient client;
    private final Clock clock;
    private final PoolControllerOptions options;
    private final Debouncer debouncer;
    private final Informers informers;
    private final Map<String, Instant> unusedSince = new HashMap<>();
    private final OperatorStatusWriter operatorStatus;
    private final AtomicLong passes = new AtomicLong();
    private final ParallelWrites writes = new ParallelWrites("pool-controller-write", 8);
    private SharedIndexInformer<MachineConfigPool> pools;
    private SharedIndexInformer<MachineConfig> configs;
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<ClusterOperator> operator;
    private SharedIndexInformer<GenericKubernetesResource> machineConfiguration;
    private SharedIndexInformer<MachineConfigNode> machineConfigNodes;
    private final MachineConfigurationWriter machineConfigurationWriter;
    private final BaseConfigSync baseConfigs;
    private final MachineConfigNodeWriter machineConfigNodeWriter;

    public PoolController(KubernetesClient client, Clock clock, PoolControllerOptions options) {
        this.client = client;
        this.clock = clock;
        this.options = options;
        this.debouncer =
                new Debouncer("pool-controller", options.minInterval(), this::reconcileSafely);
        this.informers = new Informers(debouncer::trigger);
        this.operatorStatus =
                new OperatorStatusWriter(
                        client,
                        options.releaseVersion(),
                        () ->
                                operator == null
                                        ? null
                                        : operator.getIndexer().list().stream()
                                                .findFirst()
                                                .orElse(null));
        this.baseConfigs =
                new BaseConfigSync(client, options.namespace(), options.releaseVersion());
        this.machineConfigurationWriter =
                new MachineConfigurationWriter(
                        client,
                        () ->
                                machineConfiguration == null
                                        ? null
                                        : machineConfiguration.getIndexer().list().stream()
                                                .findFirst()
                                                .orElse(null));
        this.machineConfigNodeWriter =
                new MachineConfigNodeWriter(
                        client, name -> machineConfigNodes.getIndexer().getByKey(name));
    }

    public PoolController start() {
        pools = informers.add(client.resources(MachineConfigPool.class).runnableInformer(0));
        configs = informers.add(client.resources(MachineConfig.class).runnableInformer(0));
        nodes = informers.add(client.nodes().runnableInformer(0));
        operator =
                informers.cache(
                        client.resources(ClusterOperator.class)
                                .withName(OperatorStatusWriter.NAME)
                                .runnableInformer(0));
        machineConfiguration =
                informers.add(
                        client.genericKubernetesResources(MachineConfigurations.CONTEXT)
                                .withName(MachineConfigurations.NAME)
                                .runnableInformer(0));
        baseConfigs.register(informers);
        // the agents write their status often: read on the next pass, not a reason for one
        machineConfigNodes =
                informers.cache(client.resources(MachineConfigNode.class).runnableInformer(0));
        informers.start();
        LOG.info(
                "pool controller started for release {}: {} informers synced",
                options.releaseVersion(),
                informers.size());
        debouncer.trigger();
        debouncer.every(options.resync());
        return this;
    }

    /** Completed reconcile passes; for tests and progress output. */
    public long passes() {
        return passes.get();
    }

    private void reconcileSafely() {
        try {
            reconcile();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409)
                LOG.info("pool reconcile: an object changed since it was read; reading again");
            else LOG.warn("pool reconcile failed ({}); reconciling again", ApiErrors.describe(e));
            LOG.debug("pool reconcile failed", e);
            debouncer.trigger();
        } catch (RuntimeException e) {
            if (ApiErrors.code(e) > 0)
                LOG.warn("pool reconcile failed ({}); reconciling again", ApiErrors.describe(e));
            else LOG.error("pool reconcile failed: {}", e.toString(), e);
            debouncer.trigger();
        }
    }

    /** One pass over every pool, on the caller's thread. */
    public synchronized void reconcile() {
        Instant now = clock.instant();
        List<MachineConfigPool> allPools = Informers.byName(pools);
        BaseConfigSync.Result base = baseConfigs.sync(Informers.byName(configs));
        List<MachineConfig> allConfigs = base.configs();
        Map<String, String> versionOf = new HashMap<>();
        for (MachineConfig mc : allConfigs) {
            Map<String, String> a = mc.getMetadata().getAnnotations();
            versionOf.put(
                    mc.getMetadata().getName(),
                    a == null ? "" : a.getOrDefault(NodeAnnotations.RELEASE_IMAGE_VERSION, ""));
        }
        List<Node> allNodes = Informers.byName(nodes);
        Map<String, List<Node>> members = PoolMembers.assign(allPools, allNodes);
        List<PoolGate.Pool> gate = new ArrayList<>();
        for (MachineConfigPool pool : allPools) {
            gate.add(
                    sync(
                            pool,
                            allConfigs,
                            base.failure(),
                            members.get(pool.getMetadata().getName()),
                            versionOf,
                            now));
        }
        writes.run(
                machineConfigNodeWriter.sync(
                        members, allNodes, machineConfigNodes.getIndexer().list()));
        removeUnused(allPools, gate, allConfigs, now);
        operatorStatus.write(gate, base.failure(), now);
        machineConfigurationWriter.write();
        passes.incrementAndGet();
    }

    /**
     * @param templateFailure why the base configs did not render, or null: no pool is rendered then
     */
    private PoolGate.Pool sync(
            MachineConfigPool pool,
            List<MachineConfig> allConfigs,
            String templateFailure,
            List<Node> poolNodes,
            Map<String, String> versionOf,
            Instant now) {
        String name = pool.getMetadata().getName();
        String target =
                pool.getSpec() != null && pool.getSpec().getConfiguration() != null
                        ? Objects.requireNonNullElse(
                                pool.getSpec().getConfiguration().getName(), "")
                        : "";
        String renderError = templateFailure;
        if (templateFailure == null) {
            try {
                RenderedConfig rendered =
                        RenderedConfig.render(
                                name,
                                pool.getSpec() == null
                                        ? null
                                        : pool.getSpec().getMachineConfigSelector(),
                                allConfigs);
                if (rendered.sources().isEmpty())
                    throw new IllegalArgumentException(
                            "no MachineConfig matches the pool's machineConfigSelector");
                requireOwnRelease(rendered, allConfigs);
                if (!versionOf.containsKey(rendered.name())) {
                    createRendered(pool, rendered);
                } else if (!options.releaseVersion().equals(versionOf.get(rendered.name()))) {
                    claimRendered(
                            allConfigs.stream()
                                    .filter(c -> c.getMetadata().getName().equals(rendered.name()))
                                    .findFirst()
                                    .orElseThrow(),
                            versionOf.get(rendered.name()));
                }
                versionOf.put(rendered.name(), options.releaseVersion());
                if (!rendered.name().equals(target)) {
                    setTarget(pool, rendered);
                    target = rendered.name();
                }
            } catch (IllegalArgumentException e) {
                renderError = e.getMessage();
                LOG.warn("machineconfigpools/{}: not rendered: {}", name, renderError);
            }
        }

        List<PoolNode> view =
                new ArrayList<>(
                        poolNodes.stream()
                                .map(n -> PoolMembers.view(n, options.nodeName()))
                                .toList());
        boolean paused = pool.getSpec() != null && Boolean.TRUE.equals(pool.getSpec().getPaused());
        String specError = null;
        int maxUnavailable = 1;
        MaintenanceWindow window = null;
        try {
            IntOrString max = pool.getSpec() == null ? null : pool.getSpec().getMaxUnavailable();
            maxUnavailable =
                    MaxUnavailable.resolve(
                            max == null
                                    ? null
                                    : max.getIntVal() != null ? max.getIntVal() : max.getStrVal(),
                            view.size());
            String windowText =
                    pool.getMetadata().getAnnotations() == null
                            ? null
                            : pool.getMetadata().getAnnotations().get(MaintenanceWindow.ANNOTATION);
            if (windowText != null) window = MaintenanceWindow.parse(windowText);
        } catch (IllegalArgumentException e) {
            specError = e.getMessage();
            LOG.warn("machineconfigpools/{}: no node touched: {}", name, specError);
        }
        String waiting = null;
        String finalTarget = target;
        boolean due = view.stream().anyMatch(n -> !finalTarget.equals(n.desiredConfig()));
        if (specError == null && !target.isEmpty() && !paused && due) {
            if (window != null && !window.isOpen(now)) {
                waiting =
                        "Waiting for the maintenance window \""
                                + window.text()
                                + "\" (opens "
                                + window.nextOpening(now)
                                + ") to update to MachineConfig "
                                + target;
            } else {
                List<Integer> picked =
                        NodeSelection.pick(view, target, maxUnavailable, false).stream()
                                .map(view::indexOf)
                                .toList();
                writes.run(
                        picked.stream()
                                .<Runnable>map(
                                        i -> () -> startUpdate(poolNodes.get(i), name, finalTarget))
                                .toList());
                for (int i : picked) view.set(i, view.get(i).told(target));
            }
        }
        List<Runnable> untaint = new ArrayList<>();
        for (int i = 0; i < poolNodes.size(); i++) {
            Node node = poolNodes.get(i);
            if (view.get(i).done() && hasUpdateTaint(node)) untaint.add(() -> endUpdateTaint(node));
        }
        writes.run(untaint);

        PoolProgress progress =
                new PoolProgress(name, target, view, paused, renderError, specError, waiting);
        writeStatus(
                pool,
                progress.status(
                        pool.getStatus(),
                        Objects.requireNonNullElse(pool.getMetadata().getGeneration(), 0L),
                        now));
        boolean released =
                progress.isUpdated() && options.releaseVersion().equals(versionOf.get(target));
        boolean required =
                pool.getMetadata().getLabels() != null
                        && pool.getMetadata().getLabels().containsKey(RequiredPools.LABEL);
        // A node's version is the release that rendered the config it runs; a node that runs none
        // yet has none to tell.
        Map<String, String> nodeVersions = new java.util.LinkedHashMap<>();
        for (PoolNode n : view) {
            if (!n.currentConfig().isEmpty())
                nodeVersions.put(n.name(), versionOf.getOrDefault(n.currentConfig(), ""));
        }
        return new PoolGate.Pool(name, progress, required, released, nodeVersions);
    }

    /**
     * A config another release's controller generated is not rendered into a pool: it waits for
     * this release's (upstream's render controller refuses those of an older controller,
     * OCPBUGS-3821), so that a pool never gets a config that mixes two releases' base configs.
     */
    private void requireOwnRelease(RenderedConfig rendered, List<MachineConfig> allConfigs) {
        for (MachineConfig mc : allConfigs) {
            String by = BaseConfigs.generatedBy(mc);
            if (!by.isEmpty()
                    && !by.equals(options.releaseVersion())
                    && rendered.sources().contains(mc.getMetadata().getName())) {
                throw new IllegalArgumentException(
                        "ignoring MachineConfig "
                                + mc.getMetadata().getName()
                                + " generated by release "
                                + by
                                + "'s controller (this controller's release: "
                                + options.releaseVersion()
                                + ")");
            }
        }
    }

    private void createRendered(MachineConfigPool pool, RenderedConfig rendered) {
        MachineConfig mc =
                new MachineConfigBuilder()
                        .withNewMetadata()
                        .withName(rendered.name())
                        .addToAnnotations(
                                NodeAnnotations.RELEASE_IMAGE_VERSION, options.releaseVersion())
                        .addToAnnotations(BaseConfigs.GENERATED_BY, options.releaseVersion())
                        .addNewOwnerReference()
                        .withApiVersion("machineconfiguration.openshift.io/v1")
                        .withKind("MachineConfigPool")
                        .withName(pool.getMetadata().getName())
                        .withUid(pool.getMetadata().getUid())
                        .withController(true)
                        .endOwnerReference()
                        .endMetadata()
                        .withSpec(rendered.spec())
                        .build();
        try {
            client.resources(MachineConfig.class).resource(mc).create();
            LOG.info(
                    "machineconfigs/{} rendered for pool {} from {}",
                    rendered.name(),
                    pool.getMetadata().getName(),
                    rendered.sources());
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) throw e; // already there: the cache was behind
        }
    }

    /**
     * The same content rendered by another release's controller is what this release renders too (a
     * release whose base configs did not change, or the previous controller rendered this release's
     * MachineConfigs before it was replaced): it now carries this release's version, else the pool
     * would never count as running this release. Upstream's render controller does the same: it
     * applies the config it generated over the pool's current one of the same name, annotations and
     * all.
     */
    private void claimRendered(MachineConfig mc, String previousVersion) {
        String name = mc.getMetadata().getName();
        MergePatch.against(mc)
                .annotate(NodeAnnotations.RELEASE_IMAGE_VERSION, options.releaseVersion())
                .annotate(BaseConfigs.GENERATED_BY, options.releaseVersion())
                .sendTo(client, mc);
        LOG.info(
                "machineconfigs/{}: rendered by release {} before, now marked as release {}'s",
                name,
                previousVersion.isEmpty() ? "(none)" : previousVersion,
                options.releaseVersion());
    }

    private void setTarget(MachineConfigPool pool, RenderedConfig rendered) {
        ObjectNode configuration = JSON.createObjectNode().put("name", rendered.name());
        var sources = configuration.putArray("source");
        rendered.sources()
                .forEach(
                        s ->
                                sources.addObject()
                                        .put("apiVersion", "machineconfiguration.openshift.io/v1")
                                        .put("kind", "MachineConfig")
                                        .put("name", s));
        MergePatch.against(pool).set("spec.configuration", configuration).sendTo(client, pool);
        LOG.info(
                "machineconfigpools/{}: target config {}",
                pool.getMetadata().getName(),
                rendered.name());
    }

    /**
     * Tells a node its new config and taints it, so that new workloads prefer nodes that stay. The
     * taints are the node's as read plus the update taint, written only if nobody changed the node
     * since (else the next pass reads it again): a taint another controller added in between is
     * never dropped. Its MachineConfigNode names the config first, as upstream's node controller
     * does; a failure there is logged and made good by a later pass.
     */
    private void startUpdate(Node node, String pool, String target) {
        String nodeName = node.getMetadata().getName();
        try {
            machineConfigNodeWriter.write(node, pool, target);
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "machineconfignodes/{}: desired config {} not written ({}); the node is told by"
                            + " its annotation, a later pass writes it",
                    nodeName,
                    target,
                    ApiErrors.describe(e));
        }
        List<Taint> taints = new ArrayList<>(taints(node));
        if (!hasUpdateTaint(node)) {
            taints.add(new Taint("PreferNoSchedule", NodeAnnotations.UPDATE_TAINT, null, null));
        }
        MergePatch.against(node)
                .annotate(NodeAnnotations.DESIRED_CONFIG, target)
                .set("spec.taints", taints)
                .sendTo(client, node);
        machineConfigNodeWriter.told(nodeName, target);
        LOG.info("nodes/{}: desiredConfig {}", nodeName, target);
    }

    private static List<Taint> taints(Node node) {
        return node.getSpec() == null || node.getSpec().getTaints() == null
                ? List.of()
                : node.getSpec().getTaints();
    }

    private static boolean hasUpdateTaint(Node node) {
        return taints(node).stream().anyMatch(PoolController::isUpdateTaint);
    }

    /**
     * A node that finished its config loses the update taint (conditionally, as {@link
     * #startUpdate}).
     */
    private void endUpdateTaint(Node node) {
        List<Taint> taints = taints(node);
        MergePatch.against(node)
                .set("spec.taints", taints.stream().filter(t -> !isUpdateTaint(t)).toList())
                .sendTo(client, node);
    }

    private static boolean isUpdateTaint(Taint t) {
        return NodeAnnotations.UPDATE_TAINT.equals(t.getKey())
                && "PreferNoSchedule".equals(t.getEffect());
    }

    /** The pool's status, when it changed, as an update conditional on the pool as read. */
    private void writeStatus(MachineConfigPool pool, MachineConfigPoolStatus status) {
        if (JSON.valueToTree(status).equals(JSON.valueToTree(pool.getStatus()))) return;
        MachineConfigPool next = JSON.convertValue(JSON.valueToTree(pool), MachineConfigPool.class);
        next.setStatus(status);
        client.resource(next).updateStatus();
    }

    /**
     * Rendered configs no pool targets and no node runs or is told to run are deleted once unused
     * for the grace period: a node that is slow to report must still find the config it was given.
     */
    private void removeUnused(
            List<MachineConfigPool> allPools,
            List<PoolGate.Pool> passed,
            List<MachineConfig> allConfigs,
            Instant now) {
        java.util.Set<String> used = new java.util.HashSet<>();
        for (MachineConfigPool p : allPools) {
            if (p.getSpec() != null && p.getSpec().getConfiguration() != null)
                used.add(p.getSpec().getConfiguration().getName());
            if (p.getStatus() != null && p.getStatus().getConfiguration() != null)
                used.add(p.getStatus().getConfiguration().getName());
        }
        for (PoolGate.Pool p : passed) {
            for (PoolNode n :
                    p.progress().nodes()) { // as this pass left them, newly told configs included
                used.add(n.currentConfig());
                used.add(n.desiredConfig());
            }
        }
        for (MachineConfig mc : allConfigs) {
            String name = mc.getMetadata().getName();
            if (!name.startsWith(RenderedConfig.PREFIX) || used.contains(name)) {
                unusedSince.remove(name);
                continue;
            }
            Instant since = unusedSince.computeIfAbsent(name, k -> now);
            if (!now.isBefore(since.plus(options.renderGrace()))) {
                client.resources(MachineConfig.class).withName(name).delete();
                unusedSince.remove(name);
                LOG.info("machineconfigs/{} deleted: unused for {}", name, options.renderGrace());
            }
        }
    }

    @Override
    public void close() {
        debouncer.close();
        writes.close();
        informers.close();
    }
}
