package io.upshift.clusterversion.controller;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.upshift.clusterversion.metrics.ControllerFacts;
import io.upshift.clusterversion.model.DesiredUpdates;
import io.upshift.clusterversion.model.History;
import io.upshift.clusterversion.model.KeptCapabilities;
import io.upshift.clusterversion.model.SyncStatus;
import io.upshift.clusterversion.model.UpdateWindow;
import io.upshift.clusterversion.model.UpdatesReport;
import io.upshift.clusterversion.model.Upgradeable;
import io.upshift.clusterversion.model.VersionStatus;
import io.upshift.graph.client.UpdateClient;
import io.upshift.graph.risk.RuleMatcher;
import io.upshift.releases.capability.Capabilities;
import io.upshift.releases.capability.CapabilitySets;
import io.upshift.releases.image.Egress;
import io.upshift.releases.image.Releases;
import io.upshift.releases.inclusion.ComponentOverride;
import io.upshift.releases.inclusion.FeatureGates;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.runtime.health.Startup;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.kube.Backoff;
import io.upshift.runtime.kube.Changes;
import io.upshift.runtime.kube.Events;
import io.upshift.runtime.kube.WorkQueue;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster-version controller: takes ClusterVersion {@code version} from the release it runs to
 * the one {@code spec.desiredUpdate} asks for. Driven by informers (the ClusterVersion,
 * ClusterOperators, the ClusterVersion CRD, the admin gate and ack ConfigMaps) through a
 * rate-limited work queue, each sync reads only caches: it resolves the desired update, hands the
 * resulting work to the {@link SyncWorker} (which accepts the target and applies its payload), and
 * has the {@link StatusRecorder} write the status that follows from the worker's report, when it
 * differs from the cluster's. Crash-only: what it keeps in memory is a cache of the cluster it can
 * lose at any moment.
 */
public final class ClusterVersionController implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterVersionController.class);
    private static final String KEY = ClusterCaches.NAME;

    private final ControllerOptions options;
    private final AvailableUpdatesSync updates;
    private final Clock clock;
    private final Changes changes = new Changes();
    private final WorkQueue<String> queue =
            new WorkQueue<>("cluster-version", Backoff.controller());
    private final ClusterCaches caches;
    private final LiveCache liveCache;
    private final ManifestApplier applier;
    private final Deletions deletions;
    private final StatusRecorder recorder;
    private final TimesAnnotation timesAnnotation;
    private final CapabilitiesAnnotation capabilitiesAnnotation;
    private final RunLevelClock levels;
    private final SyncWorker worker;
    private final ExecutorService pool;

    /** How long a graph worker waits for the next task before it ends. */
    private static final Duration TASK_THREAD_IDLE = Duration.ofSeconds(20);

    private final Thread loop;
    private volatile boolean stopping;
    private boolean reportedMissing;
    private final KubernetesClient client;
    private Instant refreshScheduled = Instant.MIN;
    private Instant windowScheduled = Instant.MIN;
    private final Events events;

    /** The hold last said in an event ("" for none): an event per change, not per sync. */
    private String heldSaid = "";

    private final AtomicBoolean progressPending = new AtomicBoolean();
    private final AtomicBoolean operatorsPending = new AtomicBoolean();

    /**
     * A controller pulling releases with {@code releases}, reading signature stores with {@code
     * stores}, asking the update graph with {@code updateClient} and evaluating risk rules with
     * {@code rules}.
     */
    public static ClusterVersionController create(
            KubernetesClient client,
            ControllerOptions options,
            Releases releases,
            SignatureStores stores,
            UpdateClient updateClient,
            RuleMatcher rules,
            Clock clock) {
        ControllerOptions.JobRetrieval j = options.jobRetrieval();
        // running from a release image, the controller's own payload is in its own image's root, as
        // upstream's is
        PayloadJobs jobs =
                j == null
                        ? null
                        : new PayloadJobs(
                                client,
                                j.namespace(),
                                j.node(),
                                options.payloadCache(),
                                j.timeout(),
                                options.ownRelease() == null
                                        ? null
                                        : new PayloadJobs.OwnPayload(
                                                DesiredUpdates.bare(options.ownRelease()),
                                                Path.of("/")));
        return new ClusterVersionController(
                client,
                options,
                egress ->
                        new RegistryPayloads(
                                releases, options.payloadCache(), client, stores, jobs, egress),
                new AvailableUpdatesSync(
                        updateClient,
                        rules,
                        clock,
                        options.architecture(),
                        options.defaultUpstream()),
                clock);
    }

    /**
     * @param payloads the payload source, given how the cluster reaches the outside (its proxy and
     *     trusted CA bundle, as the controller's caches hold them at each call)
     */
    ClusterVersionController(
            KubernetesClient client,
            ControllerOptions options,
            Function<Supplier<Egress>, PayloadSource> payloads,
            AvailableUpdatesSync updates,
            Clock clock) {
        this.client = client;
        this.options = options;
        this.updates = updates;
        this.clock = clock;
        this.caches =
                new ClusterCaches(
                        client,
                        () -> {
                            changes.signal(ClusterCaches.KEY);
                            queue.add(KEY);
                        },
                        () -> {
                            // ClusterOperators change by the hundred during an update; Upgradeable
                            // follows within a second (as it
                            // does a change of the admin gates or acks)
                            if (operatorsPending.compareAndSet(false, true))
                                queue.addAfter(KEY, Duration.ofSeconds(1));
                        });
        // a deletion completing changes Upgradeable
        this.deletions = new Deletions(() -> queue.add(KEY));
        this.liveCache = new LiveCache(client, changes, deletions::gone);
        this.applier = new ManifestApplier(client, liveCache, caches::clusterProxy, deletions);
        this.events =
                new Events(
                        client,
                        clock,
                        "config.openshift.io/v1",
                        "ClusterVersion",
                        ClusterCaches.NAME,
                        "upshift-cluster-version");
        this.recorder = new StatusRecorder(client, clock, options.progressInterval(), events);
        // the graph's workers, only while a pass runs: a level cluster keeps none of them
        int workers = Math.max(options.updatingWorkers(), options.reconcilingWorkers());
        ThreadPoolExecutor tasks =
                new ThreadPoolExecutor(
                        workers,
                        workers,
                        TASK_THREAD_IDLE.toSeconds(),
                        TimeUnit.SECONDS,
                        new LinkedBlockingQueue<>(),
                        r -> {
                            Thread t = new Thread(r, "cluster-version-task");
                            t.setDaemon(true);
                            return t;
                        });
        tasks.allowCoreThreadTimeOut(true);
        this.pool = tasks;
        this.timesAnnotation = new TimesAnnotation(client);
        this.capabilitiesAnnotation = new CapabilitiesAnnotation(client);
        GraphPass graphPass = new GraphPass(applier, liveCache, changes, pool, options, clock);
        this.levels = graphPass.levels();
        this.worker =
                new SyncWorker(
                        new Acceptance(
                                payloads.apply(caches::egress), events, options.architecture()),
                        graphPass,
                        caches,
                        changes,
                        options,
                        clock,
                        (s, progressOnly) -> {
                            // a task done moves only the count, which status shows at most once per
                            // progress interval
                            if (!progressOnly) queue.add(KEY);
                            else if (progressPending.compareAndSet(false, true))
                                queue.addAfter(KEY, options.progressInterval());
                        });
        this.loop = new Thread(this::run, "cluster-version-controller");
        this.loop.setDaemon(true);
    }

    /**
     * Who copies ClusterVersion and writes its copy before the status that records Completed
     * (default: nobody); set before {@link #start()}.
     */
    public void mirrorCompletionTo(CompletionMirror mirror) {
        recorder.mirror = mirror;
    }

    /**
     * Starts the informers (waiting for their caches), the sync worker and the controller's queue.
     */
    public void start() {
        caches.start();
        worker.start();
        loop.start();
        queue.add(KEY);
    }

    private final AtomicLong syncs = new AtomicLong();

    private void run() {
        while (!stopping) {
            String key;
            try {
                key = queue.take();
            } catch (InterruptedException e) {
                return;
            }
            try {
                sync();
                Startup.firstSync();
                queue.forget(key);
            } catch (KubernetesClientException e) {
                if (stopping) return;
                Duration retry = queue.addRateLimited(key);
                if (e.getCode() == 409)
                    LOG.info(
                            "clusterversion/version: changed since it was read; computing the"
                                    + " status again in {} ms",
                            retry.toMillis());
                else
                    LOG.warn(
                            "clusterversion/version: sync failed ({}), retrying in {} ms",
                            ApiErrors.describe(e),
                            retry.toMillis());
                LOG.debug("clusterversion/version: sync failed", e);
            } catch (RuntimeException e) {
                if (stopping) return;
                Duration retry = queue.addRateLimited(key);
                if (ApiErrors.code(e) > 0) {
                    LOG.warn(
                            "clusterversion/version: sync failed ({}), retrying in {} ms",
                            ApiErrors.describe(e),
                            retry.toMillis());
                    LOG.debug("clusterversion/version: sync failed", e);
                } else {
                    LOG.error(
                            "clusterversion/version: sync failed, retrying in {} ms: {}",
                            retry.toMillis(),
                            e.toString(),
                            e);
                }
            } finally {
                queue.done(key);
                syncs.incrementAndGet();
            }
        }
    }

    /**
     * One sync, from caches alone: the desired update resolved, the worker handed its work, the
     * update graph asked when due, and the status that follows written when it differs from the
     * cluster's.
     */
    void sync() {
        progressPending.set(false);
        operatorsPending.set(false);
        ClusterVersion cv = caches.clusterVersion();
        if (!exists(cv)) return;
        Instant now = clock.instant();
        DesiredUpdates.Resolution resolution = DesiredUpdates.resolve(cv, options.ownRelease());
        SyncStatus sync = worker.status();
        Capabilities capabilities = enabledCapabilities(cv, sync.implicitlyEnabled());
        UpdateWindow.Hold hold =
                UpdateWindow.hold(
                        cv,
                        resolution.target(),
                        sync.target() == null ? null : sync.target().image(),
                        now);
        DesiredUpdates.Target target =
                hold == null ? resolution.target() : running(cv, sync, resolution.target());
        if (target != null)
            worker.update(new SyncWorker.Work(target, overrides(cv), capabilities, loadRules()));
        UpdatesReport graph = updates.sync(cv, resolution, caches.egress());
        scheduleRefresh(graph.nextRefresh(), now);
        Upgradeable.Facts upgradeable =
                new Upgradeable.Facts(
                        caches.operators(),
                        cv.getSpec().getOverrides(),
                        caches.adminGates(),
                        deletions.inProgress());
        ClusterVersionStatus next =
                VersionStatus.next(
                        new VersionStatus.Input(
                                cv,
                                resolution,
                                sync,
                                graph,
                                upgradeable,
                                capabilities,
                                now,
                                caches.unreadable()));
        UpdateWindow.show(next, hold, now);
        GenericKubernetesResource crd = caches.clusterVersionCrd();
        // before a status that leaves an enabled capability out: its watch event brings the next
        // sync, which writes the status
        if (capabilitiesAnnotation.write(cv, capabilities.enabled(), recorder.capabilityNames(crd)))
            return;
        // Completed is the last word of an update: the run-level times it completes are written
        // first, and their watch event brings the sync that writes the status
        if (History.completes(
                        cv.getStatus() == null ? null : cv.getStatus().getHistory(),
                        next.getHistory())
                && timesAnnotation.write(cv, levels.current())) return;
        Duration held = recorder.record(cv, next, crd);
        // after the status: a status write computed from the object read must not follow a write of
        // that object
        timesAnnotation.write(cv, levels.current());
        if (!held.isZero()) queue.addAfter(KEY, held);
        if (hold != null && hold.until() != null) scheduleWindow(hold.until(), now);
        sayHold(hold);
    }

    /**
     * An event when the update's window begins to hold a request (Warning for a window that does
     * not parse), and one when it no longer does.
     */
    private void sayHold(UpdateWindow.Hold hold) {
        String said = hold == null ? "" : hold.message();
        if (said.equals(heldSaid)) return;
        if (hold == null)
            events.normal(
                    "UpdateNoLongerHeld",
                    "The maintenance window (upshift.io/maintenance-window) no longer holds the"
                            + " update asked for");
        else if (UpdateWindow.INVALID.equals(hold.reason()))
            events.warning(hold.reason(), hold.message());
        else events.normal(hold.reason(), hold.message());
        heldSaid = said;
    }

    /**
     * While the update's window holds a request, what the worker keeps working on: what it works on
     * already (an update under way goes on), else the release status names (null: keep none).
     */
    private DesiredUpdates.Target running(
            ClusterVersion cv, SyncStatus sync, DesiredUpdates.Target requested) {
        if (sync.target() != null) return null;
        return DesiredUpdates.running(cv, options.ownRelease(), requested.acceptRisks());
    }

    /**
     * A sync when the update's window opens, asked for once per opening: the opening comes with no
     * event. The delay is the controller's clock's; a clock that runs faster than the wall's
     * (tests, the rehearsal) is caught by the next event or refresh.
     */
    private void scheduleWindow(Instant opens, Instant now) {
        if (opens.equals(windowScheduled)) return;
        windowScheduled = opens;
        queue.addAfter(KEY, Duration.between(now, opens).plusMillis(1));
    }

    /**
     * The configured profile and exclude id, with the feature set and gates of the FeatureGate
     * {@code cluster}.
     */
    private LoadRules loadRules() {
        JsonNode gate = caches.featureGate();
        return new LoadRules(
                options.profile(),
                options.excludeIdentifier(),
                FeatureGates.featureSet(gate),
                new LoadRules.Gates.ByVersion(FeatureGates.byVersion(gate)));
    }

    /**
     * Without a ClusterVersion there is nothing to do. A controller given its own release creates
     * the default one, as upstream's did before installers took it over (a new cluster ID; no
     * channel, no upstream); its informer then brings it back. A controller without a release
     * (status only) says once that it waits for one.
     */
    private boolean exists(ClusterVersion cv) {
        if (cv != null) {
            reportedMissing = false;
            return true;
        }
        if (options.ownRelease() != null) {
            String id = UUID.randomUUID().toString();
            try {
                client.resources(ClusterVersion.class)
                        .resource(
                                new ClusterVersionBuilder()
                                        .withNewMetadata()
                                        .withName(ClusterCaches.NAME)
                                        .endMetadata()
                                        .withNewSpec()
                                        .withClusterID(id)
                                        .endSpec()
                                        .build())
                        .create();
                LOG.info("clusterversion/version did not exist: created it, cluster ID {}", id);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409)
                    throw e; // 409: created meanwhile; its informer event brings it
            }
        } else if (!reportedMissing) {
            LOG.info("clusterversion/version does not exist; waiting for it to be created");
        }
        reportedMissing = true;
        return false;
    }

    /**
     * The update graph is asked again every 2-4 minutes: a sync then, even when nothing else
     * happens.
     */
    private void scheduleRefresh(Instant due, Instant now) {
        if (due.equals(refreshScheduled)) return;
        refreshScheduled = due;
        queue.addAfter(KEY, Duration.between(now, due));
    }

    /**
     * Capabilities the spec asks for, plus those enabled before (never disabled again: what status
     * lists and what the annotation {@value KeptCapabilities#ANNOTATION} keeps where the installed
     * CRD could not hold them), those the payload implicitly enables and those this controller
     * always enables ({@code --always-enable-capabilities}), less those whose feature gates are
     * off: as upstream, the gates of the FeatureGate {@code cluster}'s entry for the version the
     * cluster is at (status desired; none: every gated capability left out).
     */
    private Capabilities enabledCapabilities(ClusterVersion cv, Set<String> implicitly) {
        var spec = cv.getSpec().getCapabilities();
        var status = cv.getStatus();
        Set<String> ensured = new TreeSet<>(implicitly);
        ensured.addAll(KeptCapabilities.enabledBefore(cv));
        ensured.addAll(options.alwaysEnabledCapabilities());
        String version =
                status == null || status.getDesired() == null
                        ? null
                        : status.getDesired().getVersion();
        Set<String> gates =
                version == null
                        ? Set.of()
                        : FeatureGates.byVersion(caches.featureGate())
                                .getOrDefault(version, Set.of());
        return CapabilitySets.of(
                spec == null ? null : spec.getBaselineCapabilitySet(),
                spec == null || spec.getAdditionalEnabledCapabilities() == null
                        ? List.of()
                        : spec.getAdditionalEnabledCapabilities(),
                ensured,
                gates);
    }

    private static List<ComponentOverride> overrides(ClusterVersion cv) {
        List<ComponentOverride> out = new ArrayList<>();
        if (cv.getSpec().getOverrides() == null) return out;
        cv.getSpec()
                .getOverrides()
                .forEach(
                        o ->
                                out.add(
                                        new ComponentOverride(
                                                o.getKind(),
                                                o.getGroup(),
                                                o.getNamespace(),
                                                o.getName(),
                                                Boolean.TRUE.equals(o.getUnmanaged()))));
        return out;
    }

    /**
     * What metrics report of this controller: the release it runs, the payload's progress, the
     * update graph's last answer.
     */
    public ControllerFacts facts() {
        if (options.ownRelease() == null) return ControllerFacts.NONE;
        SyncWorker.Running own = worker.running();
        SyncStatus s = worker.status();
        ControllerFacts.PayloadProgress progress =
                s.target() == null
                                || !(s.acceptance() instanceof SyncStatus.Acceptance.Accepted)
                                || s.total() == 0
                        ? null
                        : new ControllerFacts.PayloadProgress(
                                s.target().version(), s.done(), s.total());
        return new ControllerFacts(
                DesiredUpdates.bare(options.ownRelease()),
                own == null ? null : own.version(),
                own == null ? null : own.created(),
                progress,
                updates.lastRetrieved(),
                updates.risks());
    }

    /**
     * Syncs this controller ended (written or failed), one at a time: a sync that began after an
     * event has ended once this count moved by two since it.
     */
    public long syncs() {
        return syncs.get();
    }

    /** Passes over the task graph this controller ran (of any mode). */
    public long passes() {
        return worker.passes();
    }

    /**
     * API writes (creates, updates, deletes, status) this controller made: for the
     * no-write-when-level tests.
     */
    public long writes() {
        return applier.writes.get()
                + recorder.writes.get()
                + timesAnnotation.writes.get()
                + capabilitiesAnnotation.writes.get();
    }

    /** As kill -9 would: stop at once, mid-write or not, with no last word. */
    public void kill() {
        stopping = true;
        worker.kill();
        loop.interrupt();
        queue.close();
        pool.shutdownNow();
        caches.close();
        liveCache.close();
    }

    /**
     * Graceful shutdown: the worker finishes its task, the progress reached is written once more,
     * then everything stops.
     */
    @Override
    public void close() {
        worker.close();
        stopping = true;
        queue.close();
        try {
            loop.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        try {
            sync();
        } catch (RuntimeException e) {
            LOG.warn("clusterversion/version: last status write failed: {}", ApiErrors.describe(e));
        }
        pool.shutdownNow();
        caches.close();
        liveCache.close();
    }
}
