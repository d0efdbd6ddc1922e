package io.upshift.status.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.json.Mappers;
import io.upshift.api.update.Insight;
import io.upshift.api.update.UpdateStatus;
import io.upshift.api.update.UpdateStatusSpec;
import io.upshift.api.update.UpdateStatusStatus;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.kube.Debouncer;
import io.upshift.runtime.kube.Informers;
import io.upshift.status.model.Alert;
import io.upshift.status.model.AssessmentException;
import io.upshift.status.model.ClusterState;
import io.upshift.status.model.DrainBlocks;
import io.upshift.status.model.InsightHistory;
import io.upshift.status.model.StatusObjects;
import io.upshift.status.model.UpdateAssessment;
import io.upshift.status.snapshot.Snapshot;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps the update's insights current: one object per insight (node, pool, operator, cluster
 * version, health) and the UpdateStatus named {@code cluster} as their summary ({@link
 * StatusObjects}). Informers watch ClusterVersion, ClusterOperators, MachineConfigPools,
 * MachineConfigs, Nodes, the machine-config operator Deployment and the insight objects themselves;
 * any change asks for an evaluation, evaluations run at most {@value #BURST} times per interval,
 * and an object is written only when it differs from what the API server holds, deleted when its
 * subject is gone.
 */
public final class UpdateStatusController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(UpdateStatusController.class);
    private static final ObjectMapper JSON = Mappers.JSON;

    /**
     * Evaluations allowed in one interval: the change that ends an update (Completed, just after
     * the run-level times annotation) is mirrored at once, not an interval later, so a level
     * cluster is quiet from the moment it says so.
     */
    static final int BURST = 3;

    private final KubernetesClient client;
    private final Clock clock;
    private final Supplier<Optional<List<Alert>>> alerts;
    private final Debouncer debouncer;
    private final Duration resync;
    private final Informers informers;
    private final AtomicLong writes = new AtomicLong();
    private final AtomicLong evaluations = new AtomicLong();
    private SharedIndexInformer<ClusterVersion> versions;
    private SharedIndexInformer<ClusterOperator> operators;
    private SharedIndexInformer<MachineConfigPool> pools;
    private SharedIndexInformer<MachineConfig> configs;
    private SharedIndexInformer<Node> nodes;
    private SharedIndexInformer<Deployment> mco;
    private SharedIndexInformer<Event> events;
    private SharedIndexInformer<MachineConfigNode> machineConfigNodes;
    private InsightStore insights;
    private InsightOwners owners;
    private InsightWriter writer;
    private SharedIndexInformer<UpdateStatus> statuses;

    /** The UpdateStatus as last written or read; the cache may not show our latest write yet. */
    private volatile UpdateStatus live;

    /**
     * A ClusterVersion about to be written ({@link #mirrorAhead}), read in place of the cache's.
     */
    private final AtomicReference<Ahead> ahead = new AtomicReference<>();

    /**
     * {@code next} stands for the cached ClusterVersion while the cache holds the resourceVersion
     * {@code next} was computed from, or the older one it held when told of {@code next}.
     */
    private record Ahead(ClusterVersion next, String cachedThen) {
        boolean standsFor(ClusterVersion cached) {
            String rv = cached.getMetadata().getResourceVersion();
            return rv.equals(next.getMetadata().getResourceVersion()) || rv.equals(cachedThen);
        }
    }

    private volatile boolean started;

    /**
     * @param minInterval at most {@link #BURST} evaluations (and so writes of one object) in any
     *     such interval
     * @param resync how often to evaluate without events, for insights that depend on time alone
     * @param alerts firing alerts, read at each evaluation
     */
    public UpdateStatusController(
            KubernetesClient client,
            Clock clock,
            Duration minInterval,
            Duration resync,
            Supplier<Optional<List<Alert>>> alerts) {
        this.client = client;
        this.clock = clock;
        this.alerts = alerts;
        this.resync = resync;
        this.debouncer = new Debouncer("update-status", minInterval, BURST, this::evaluateSafely);
        this.informers = new Informers(debouncer::trigger);
    }

    /**
     * Starts the informers, waits until their caches are filled, then evaluates once and on every
     * change.
     */
    public void start() {
        versions = informers.add(client.resources(ClusterVersion.class).runnableInformer(0));
        operators = informers.add(client.resources(ClusterOperator.class).runnableInformer(0));
        pools = informers.add(client.resources(MachineConfigPool.class).runnableInformer(0));
        configs = informers.add(client.resources(MachineConfig.class).runnableInformer(0));
        nodes = informers.add(client.nodes().runnableInformer(0));
        mco =
                informers.add(
                        client.apps()
                                .deployments()
                                .inNamespace(Snapshot.MCO_NAMESPACE)
                                .withName(Snapshot.MCO_NAME)
                                .runnableInformer(0));
        // Drain blocks depend on time (the periodic run sees them); events about nodes are many, so
        // they only fill a cache.
        events = informers.cache(client.v1().events().inNamespace("default").runnableInformer(0));
        // read on the next evaluation: they stand in for missing node annotations and time a
        // failing drain, and
        // their agents write them at the moments they write the nodes
        machineConfigNodes =
                informers.cache(client.resources(MachineConfigNode.class).runnableInformer(0));
        statuses =
                informers.add(
                        client.resources(UpdateStatus.class)
                                .withName(UpdateStatus.NAME)
                                .runnableInformer(0));
        statuses.addEventHandler(
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(UpdateStatus obj) {}

                    @Override
                    public void onUpdate(UpdateStatus oldObj, UpdateStatus newObj) {}

                    @Override
                    public void onDelete(UpdateStatus obj, boolean deletedFinalStateUnknown) {
                        live = null; // deleted (and the health insights it owns with it): made
                        // anew at the next evaluation
                    }
                });
        insights = new InsightStore(client, informers);
        owners = new InsightOwners(nodes, pools, operators, versions);
        writer = new InsightWriter(client, insights, writes);
        informers.start();
        LOG.info("UpdateStatus controller started: {} informers synced", informers.size());
        started = true;
        debouncer.trigger();
        debouncer.every(resync);
    }

    /**
     * Evaluates now, on the caller's thread, as if the cluster held {@code next}: a ClusterVersion
     * its writer is about to write (the cluster-version controller recording Completed), so that
     * the insights that copy it are written first and the writer's is the last write. Later
     * evaluations read {@code next} until the cache moves past it (holds neither the
     * resourceVersion {@code next} was computed from nor the one it held when told) or the returned
     * action withdraws it. Failures are logged and retried as any evaluation's; before {@link
     * #start()} this does nothing.
     *
     * @return what to run when {@code next} is not written after all
     */
    public Runnable mirrorAhead(ClusterVersion next) {
        if (!started) return () -> {};
        ClusterVersion cached = cachedVersion();
        Ahead told =
                new Ahead(next, cached == null ? "" : cached.getMetadata().getResourceVersion());
        ahead.set(told);
        evaluateSafely();
        return () -> {
            if (ahead.compareAndSet(told, null)) debouncer.trigger();
        };
    }

    /**
     * How many writes (creates, updates, deletes) of the UpdateStatus and insight objects; for
     * tests and metrics.
     */
    public long writes() {
        return writes.get();
    }

    /** How many evaluations ran. */
    public long evaluations() {
        return evaluations.get();
    }

    /** Evaluates now, on the caller's thread; for tests. */
    public synchronized void evaluate() {
        evaluations.incrementAndGet();
        Instant now = clock.instant();
        ClusterState state = stateFromCaches();
        if (state == null) {
            LOG.info("clusterversions.config.openshift.io/version not found; nothing to report");
            return;
        }
        UpdateStatusStatus assessed;
        try {
            assessed = UpdateAssessment.assess(state, now, now);
        } catch (AssessmentException e) {
            LOG.warn("UpdateStatus {} not updated: {}", UpdateStatus.NAME, e.getMessage());
            return;
        }
        UpdateStatus current =
                InsightStore.newer(live, statuses.getIndexer().getByKey(UpdateStatus.NAME));
        if (current == null) {
            current = read();
        }
        Map<String, HasMetadata> objects = insights.current();
        List<Insight> previous = new ArrayList<>(objects.size() + 64);
        if (current != null && current.getStatus() != null) {
            previous.addAll(current.getStatus().insights());
        }
        for (HasMetadata o : objects.values()) {
            Insight i = StatusObjects.insight(o);
            if (i != null) {
                previous.add(i);
            }
        }
        StatusObjects.Split split =
                StatusObjects.split(InsightHistory.settle(previous, assessed, now));
        if (current == null) {
            current = create();
        }
        live = current;
        // the objects first: a reader of the summary then finds the objects it counts
        owners.own(split.objects(), current);
        writer.sync(split.objects(), objects);
        if (!same(current.getStatus(), split.summary())) {
            live = writeStatus(current, split.summary());
        }
    }

    private void evaluateSafely() {
        try {
            evaluate();
        } catch (KubernetesClientException e) {
            // Conflicts and outages: forget what we think the server holds and try again shortly.
            live = null;
            LOG.warn(
                    "updatestatuses.update.openshift.io/{}: write failed ({}); evaluating again",
                    UpdateStatus.NAME,
                    ApiErrors.describe(e));
            LOG.debug("updatestatuses.update.openshift.io/{}: write failed", UpdateStatus.NAME, e);
            debouncer.trigger();
        } catch (RuntimeException e) {
            if (ApiErrors.code(e) > 0)
                LOG.warn(
                        "updatestatuses.update.openshift.io/{}: evaluation failed ({}); evaluating"
                                + " again at the next change",
                        UpdateStatus.NAME,
                        ApiErrors.describe(e));
            else
                LOG.error(
                        "UpdateStatus {} evaluation failed: {}",
                        UpdateStatus.NAME,
                        e.toString(),
                        e);
        }
    }

    private ClusterVersion cachedVersion() {
        ClusterVersion cv = versions.getIndexer().getByKey("version");
        return cv != null ? cv : versions.getIndexer().list().stream().findFirst().orElse(null);
    }

    private ClusterState stateFromCaches() {
        ClusterVersion cv = cachedVersion();
        if (cv == null) {
            return null;
        }
        Ahead told = ahead.get();
        if (told != null) {
            if (told.standsFor(cv)) cv = told.next();
            else ahead.compareAndSet(told, null); // written, or overtaken by another write
        }
        Deployment deployment = mco.getIndexer().list().stream().findFirst().orElse(null);
        return new ClusterState(
                cv,
                Informers.byName(operators),
                Informers.byName(pools),
                configs.getIndexer().list(),
                Informers.byName(nodes),
                Snapshot.mcoImage(deployment),
                alerts.get(),
                DrainBlocks.events(events.getIndexer().list()),
                machineConfigNodes.getIndexer().list());
    }

    private UpdateStatus read() {
        return client.resources(UpdateStatus.class).withName(UpdateStatus.NAME).get();
    }

    private UpdateStatus create() {
        UpdateStatus fresh = new UpdateStatus();
        fresh.setMetadata(new ObjectMetaBuilder().withName(UpdateStatus.NAME).build());
        fresh.setSpec(new UpdateStatusSpec());
        UpdateStatus created = client.resource(fresh).create();
        writes.incrementAndGet();
        LOG.info("created updatestatuses.update.openshift.io/{}", UpdateStatus.NAME);
        return created;
    }

    private UpdateStatus writeStatus(UpdateStatus current, UpdateStatusStatus status) {
        UpdateStatus target = new UpdateStatus();
        target.setMetadata(current.getMetadata());
        target.setSpec(current.getSpec());
        target.setStatus(status);
        // Update with the resourceVersion we read: a concurrent writer makes this fail rather than
        // be overwritten.
        UpdateStatus written = client.resource(target).updateStatus();
        writes.incrementAndGet();
        LOG.info(
                "updated updatestatuses.update.openshift.io/{} status (resourceVersion {})",
                UpdateStatus.NAME,
                written.getMetadata().getResourceVersion());
        return written;
    }

    private static boolean same(UpdateStatusStatus a, UpdateStatusStatus b) {
        JsonNode x = JSON.valueToTree(a);
        JsonNode y = JSON.valueToTree(b);
        return x.equals(y);
    }

    @Override
    public void close() {
        debouncer.close();
        informers.close();
    }
}
