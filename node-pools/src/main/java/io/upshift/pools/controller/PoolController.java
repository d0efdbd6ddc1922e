package io.upshift.pools.controller;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.VersionInfo;
import io.upshift.graph.client.ClusterServices;
import io.upshift.graph.client.PromQLClient;
import io.upshift.pools.model.PoolDecision;
import io.upshift.pools.model.PoolPlan;
import io.upshift.runtime.health.Startup;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.kube.Debouncer;
import io.upshift.runtime.kube.ParallelWrites;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The machine-config pool controller, in the cluster-version controller's shape: informers ({@link
 * PoolCaches}), one pass at a time through a {@link Debouncer}, a pure decision ({@link
 * PoolDecision}: from what the caches hold to what should be) and one recorder of its writes
 * ({@link PoolRecorder}). A pass renders its release's base MachineConfigs from the templates the
 * payload ships ({@link BaseConfigSync}), then for each MachineConfigPool renders the selected
 * MachineConfigs into the pool's target config, tells nodes to update to it (at most maxUnavailable
 * at a time, inside the maintenance window, never in a paused pool, after the pool's hooks' Jobs),
 * and reports the pool's status; then it keeps each pool member's MachineConfigNode ({@link
 * MachineConfigNodeWriter}), reports the machine-config ClusterOperator, whose Upgradeable
 * condition gates the next minor update, and the cluster's MachineConfiguration with the node
 * disruption policies in force. A debouncer rather than a work queue: every pass looks at every
 * pool, so a burst of node events is worth one pass at the end of the interval, not one per event
 * or key. Every pass starts from what the caches hold: the controller keeps no state that a restart
 * would lose, except the pools' health gates' last answers from Prometheus ({@link GateQueries}:
 * asked only while a rollout is due, so a restart asks again), how long a rendered config has been
 * unused (a restart only delays its removal) and since when the required pools hold the release
 * back (a restart begins that wait again, as upstream's operator does).
 */
public final class PoolController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(PoolController.class);

    private final Clock clock;
    private final PoolControllerOptions options;
    private final Debouncer debouncer;
    private final PoolCaches caches;
    private final BaseConfigSync baseConfigs;
    private final ParallelWrites writes = new ParallelWrites("pool-controller-write", 8);
    private final MachineConfigNodeWriter machineConfigNodes;
    private final PoolRecorder recorder;
    private final OperatorStatusWriter operatorStatus;
    private final MachineConfigurationWriter machineConfiguration;
    private final AtomicLong passes = new AtomicLong();
    private final GateQueries gateQueries;

    /** When the pass that asks the health gates' queries again is asked for, or null. */
    private Instant gateCheckAt;

    /** The hold's end a pass is already asked for at ({@link PoolPlan#wakeAt()}), or null. */
    private Instant wakeAt;

    /** The previous pass's {@link PoolPlan#unusedSince()}. */
    private Map<String, Instant> unusedSince = Map.of();

    private final KubernetesClient client;

    /** The API server's version ({@code /version}), "" when it could not be read. */
    private String apiServerVersion = "";

    /**
     * The kubelet versions the nodes reported when the API server's version was last read: it is
     * read again when they change (an upgrade of the cluster's Kubernetes moves both), never on a
     * level cluster.
     */
    private Set<String> kubeletsSeen;

    public PoolController(KubernetesClient client, Clock clock, PoolControllerOptions options) {
        this.client = client;
        this.clock = clock;
        this.options = options;
        this.debouncer =
                new Debouncer("pool-controller", options.minInterval(), this::reconcileSafely);
        this.caches = new PoolCaches(client, options.namespace(), debouncer::trigger);
        this.baseConfigs =
                new BaseConfigSync(client, options.namespace(), options.releaseVersion(), caches);
        this.machineConfigNodes = new MachineConfigNodeWriter(client, caches::machineConfigNode);
        this.recorder =
                new PoolRecorder(client, machineConfigNodes, writes, options.renderGrace(), clock);
        this.operatorStatus =
                new OperatorStatusWriter(client, options.releaseVersion(), caches::operator);
        this.machineConfiguration =
                new MachineConfigurationWriter(client, caches::machineConfiguration);
        this.gateQueries =
                new GateQueries(
                        options.promql() == null
                                ? null
                                : new PromQLClient(
                                        options.promql(),
                                        new ClusterServices(client),
                                        Duration.ofSeconds(10),
                                        1 << 20),
                        options.gateInterval());
    }

    /** Starts the informers (waiting for their caches), then a pass, and one every resync. */
    public PoolController start() {
        caches.start();
        LOG.info(
                "pool controller started for release {}: {} informers synced",
                options.releaseVersion(),
                caches.size());
        debouncer.trigger();
        debouncer.every(options.resync());
        return this;
    }

    /** Completed reconcile passes; for tests and progress output. */
    /**
     * The metrics text ({@link io.upshift.pools.metrics.ControllerFamilies}) of the pools and nodes
     * as the caches hold them now.
     */
    public String scrape() {
        PoolCaches.Snapshot cached = caches.read();
        return io.upshift.pools.metrics.PoolSamples.render(cached.pools(), cached.nodes());
    }

    public long passes() {
        return passes.get();
    }

    private void reconcileSafely() {
        try {
            reconcile();
            Startup.firstSync();
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

    /**
     * One pass, on the caller's thread: read the caches, sync the base configs, decide (and, when
     * the decision needs health gate queries answered that have no fresh answer, ask Prometheus and
     * decide again with the answers), record, then the MachineConfigNodes, the operator's status
     * and the MachineConfiguration.
     */
    public synchronized void reconcile() {
        Instant now = clock.instant();
        PoolCaches.Snapshot cached = caches.read();
        BaseConfigSync.Result base = baseConfigs.sync(cached.configs());
        readApiServerVersion(cached.nodes());
        Map<String, String> refused = recorder.refused();
        PoolPlan plan = decide(cached, base, refused, now);
        if (gateQueries.refresh(plan.queries(), now)) plan = decide(cached, base, refused, now);
        askAgain(plan, now);
        recorder.record(plan);
        if (!recorder.refused().equals(refused)) debouncer.trigger(); // to say so in the status
        unusedSince = plan.unusedSince();
        wake(plan.wakeAt(), now);
        writes.run(
                machineConfigNodes.sync(
                        plan.members(), cached.nodes(), cached.machineConfigNodes()));
        operatorStatus.write(plan.gate(), apiServerVersion, base.failure(), now);
        machineConfiguration.write();
        passes.incrementAndGet();
    }

    /**
     * Reads {@code /version} on the first pass and whenever the set of kubelet versions the nodes
     * report has changed; a failure leaves the version unknown (the gate then compares releases and
     * says so) and is retried with the next change.
     */
    private void readApiServerVersion(List<Node> nodes) {
        Set<String> kubelets = new TreeSet<>();
        for (Node n : nodes) kubelets.add(PoolDecision.kubeletVersion(n));
        if (kubelets.equals(kubeletsSeen)) return;
        kubeletsSeen = kubelets;
        String before = apiServerVersion;
        try {
            VersionInfo v = client.getKubernetesVersion();
            apiServerVersion = v == null || v.getGitVersion() == null ? "" : v.getGitVersion();
        } catch (KubernetesClientException e) {
            apiServerVersion = "";
            LOG.warn(
                    "cannot read the API server's version ({}): the kubelet skew gate compares"
                            + " releases instead",
                    ApiErrors.describe(e));
        }
        if (!apiServerVersion.equals(before))
            LOG.info(
                    "API server version {}; nodes' kubelets {}",
                    apiServerVersion.isEmpty() ? "unknown" : apiServerVersion,
                    kubelets);
    }

    /**
     * A pass when a hold ends by itself (a soak, a window opening), asked for once per end: such an
     * end comes with no event. The delay is the controller's clock's; the resync catches a clock
     * that runs faster than the wall's (tests, the rehearsal).
     */
    private void wake(Instant at, Instant now) {
        if (at == null || at.equals(wakeAt)) return;
        wakeAt = at;
        debouncer.triggerIn(Duration.between(now, at).plusMillis(1));
    }

    /**
     * While a pool needs its health gates' queries answered (a rollout is due), a pass once per
     * interval asks them again: Prometheus sends no event. A level cluster asks for none.
     */
    private void askAgain(PoolPlan plan, Instant now) {
        if (plan.queries().isEmpty()) {
            gateCheckAt = null;
            return;
        }
        if (gateCheckAt != null && now.isBefore(gateCheckAt)) return;
        gateCheckAt = now.plus(gateQueries.interval());
        debouncer.triggerIn(gateQueries.interval());
    }

    private PoolPlan decide(
            PoolCaches.Snapshot cached,
            BaseConfigSync.Result base,
            Map<String, String> refused,
            Instant now) {
        return PoolDecision.decide(
                new PoolDecision.Input(
                        options.releaseVersion(),
                        options.nodeName(),
                        options.renderGrace(),
                        cached.pools(),
                        base.configs(),
                        base.failure(),
                        cached.nodes(),
                        unusedSince,
                        now,
                        cached.pods(),
                        gateQueries.readings(),
                        new PoolDecision.Hooks(
                                options.namespace(),
                                cached.configMaps(),
                                cached.hookJobs(),
                                refused)));
    }

    @Override
    public void close() {
        debouncer.close();
        writes.close();
        caches.close();
    }
}
