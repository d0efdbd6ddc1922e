package io.upshift.clusterversion.controller;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.clusterversion.model.DesiredUpdates;
import io.upshift.clusterversion.model.Failing;
import io.upshift.clusterversion.model.Handover;
import io.upshift.clusterversion.model.History;
import io.upshift.clusterversion.model.OperatorLevel;
import io.upshift.clusterversion.model.Progress;
import io.upshift.clusterversion.model.SyncStatus;
import io.upshift.releases.capability.Capabilities;
import io.upshift.releases.inclusion.ComponentOverride;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.runtime.kube.Changes;
import io.upshift.status.estimate.RunLevelTimes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The sync worker, as upstream's: it owns the accepted release, its payload and the passes over its
 * task graph, on a thread of its own, and reports where it stands as a {@link SyncStatus} after
 * every step. The controller hands it work ({@link #update}); a pass in progress is cancelled when
 * the work changes. After a complete pass it waits for the reconcile interval (a Reconciling pass
 * every 2-4 minutes); after a pass that failed, or a target it refused, it retries after a backoff
 * that doubles from a sixteenth of that interval up to the interval. A pass that only waited
 * (operators still rolling out) is followed by the next one at once.
 */
final class SyncWorker implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(SyncWorker.class);

    /**
     * How long a reported acceptance may take to show in the cluster before the worker looks at its
     * work again.
     */
    private static final Duration RECORDING = Duration.ofSeconds(30);

    /**
     * Where the worker's reports go: each new status, and whether only the progress of a pass
     * moved.
     */
    interface Reports {
        void report(SyncStatus status, boolean progressOnly);
    }

    /**
     * What the controller asks for: the target, and what decides which of its manifests apply: when
     * loading ({@code loading}: profile, exclude id, feature set and gates) and when applying
     * (overrides, capabilities).
     */
    record Work(
            DesiredUpdates.Target target,
            List<ComponentOverride> overrides,
            Capabilities capabilities,
            LoadRules loading) {
        InclusionRules rules() {
            return InclusionRules.none().withCapabilities(capabilities).withOverrides(overrides);
        }

        /**
         * The same work, a version learnt aside: once a release given by image alone is recorded,
         * the desired update names its version too, and that is no reason to start again.
         */
        boolean sameAs(Work other) {
            DesiredUpdates.Target a = target, b = other.target;
            boolean versions =
                    a.version().equals(b.version())
                            || a.version().isEmpty()
                            || b.version().isEmpty();
            return versions
                    && a.image().equals(b.image())
                    && a.force() == b.force()
                    && a.acceptRisks().equals(b.acceptRisks())
                    && overrides.equals(other.overrides)
                    && capabilities.equals(other.capabilities)
                    && loading.equals(other.loading);
        }
    }

    private final Acceptance acceptance;
    private final GraphPass pass;
    private final ClusterCaches caches;
    private final Changes changes;
    private final ControllerOptions options;
    private final Clock clock;
    private final Reports report;
    private final SplittableRandom random = new SplittableRandom();
    private final Duration reconcileInterval;
    private final Thread thread;

    private Work desired; // guarded by this
    private boolean workChanged; // guarded by this
    private Instant next = Instant.MIN; // guarded by this: when to run again without new work
    private volatile SyncStatus status = SyncStatus.IDLE;
    private volatile boolean stopping;
    private Acceptance.Accepted accepted;
    private LoadRules acceptedLoading;

    /**
     * The payload last accepted, kept through refusals: the trust anchor for the next target while
     * it is the running release.
     */
    private Payload lastAccepted;

    /**
     * The release this controller runs, once its payload was accepted here: what metrics say of it.
     */
    private volatile Running running;

    /**
     * The version of the release this controller runs and when its payload was created (null when
     * it does not say).
     */
    record Running(String version, Instant created) {}

    private int failures;
    private int reconcileAttempt;
    private final AtomicLong passes = new AtomicLong();

    SyncWorker(
            Acceptance acceptance,
            GraphPass pass,
            ClusterCaches caches,
            Changes changes,
            ControllerOptions options,
            Clock clock,
            Reports report) {
        this.acceptance = acceptance;
        this.pass = pass;
        this.caches = caches;
        this.changes = changes;
        this.options = options;
        this.clock = clock;
        this.report = report;
        // as upstream: the interval is drawn once per process, between the minimum and twice it
        this.reconcileInterval =
                Duration.ofNanos(
                        (long) (options.reconcileInterval().toNanos() * (1 + random.nextDouble())));
        this.thread = new Thread(this::run, "cluster-version-sync-worker");
        this.thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    /** Asks for {@code work}; nothing happens when it is the work already asked for. */
    synchronized void update(Work work) {
        if (desired != null && desired.sameAs(work)) return;
        desired = work;
        workChanged = true;
        notifyAll();
    }

    SyncStatus status() {
        return status;
    }

    /** The release this controller runs, once its payload was accepted here; null before. */
    Running running() {
        return running;
    }

    /** Passes over the task graph run so far. */
    long passes() {
        return passes.get();
    }

    private void run() {
        while (!stopping) {
            try {
                Work work = awaitWork();
                if (work != null) syncOnce(work);
            } catch (InterruptedException e) {
                return;
            } catch (RuntimeException e) {
                if (stopping) return;
                LOG.warn("clusterversion/version: sync failed, retrying: {}", e.toString());
                retryLater();
            }
        }
    }

    /** The work to do once it changed or its next run is due; null when woken for nothing. */
    private synchronized Work awaitWork() throws InterruptedException {
        while (!stopping && (desired == null || (!workChanged && clock.instant().isBefore(next)))) {
            if (desired == null) wait();
            else wait(Math.max(1, Duration.between(clock.instant(), next).toMillis()));
        }
        workChanged = false;
        return stopping ? null : desired;
    }

    private synchronized boolean workChanged() {
        return workChanged || stopping;
    }

    private void syncOnce(Work work) throws InterruptedException {
        DesiredUpdates.Target target = work.target();
        if (accepted == null
                || !target.image().equals(accepted.record().image())
                || !work.loading().equals(acceptedLoading)) {
            if (!accept(work)) return;
        }
        if (!awaitRecorded(target.image())) {
            retryLater();
            return;
        }
        ClusterVersion cv = caches.clusterVersion();
        Mode mode = History.mode(cv.getStatus().getHistory(), target.image());
        pass.levels().begin(accepted.payload(), target.image(), mode, RunLevelTimes.of(cv));
        GraphPass.Outcome outcome =
                pass.run(
                        accepted.payload(),
                        mode,
                        reconcileAttempt,
                        work.rules(),
                        status.waitingOn(),
                        p ->
                                publish(
                                        status.withProgress(
                                                mode, p.done(), p.total(), p.waitingOn()),
                                        true),
                        this::workChanged);
        if (mode == Mode.RECONCILING) reconcileAttempt++;
        passes.incrementAndGet();
        // Completed is the staying controller's to say: one that applied its successor's
        // Deployment waits to be replaced (Handover)
        boolean complete =
                outcome.complete()
                        && Handover.mayComplete(
                                outcome.handsOver(), options.ownRelease(), target.image());
        if (workChanged() && !complete) return; // cancelled: the new work decides what to report
        Instant now = clock.instant();
        Failing failing =
                outcome.complete()
                        ? Failing.NONE
                        : Failing.of(outcome.errors(), now, options.thresholds());
        publish(
                status.afterPass(
                        mode,
                        outcome.done(),
                        outcome.total(),
                        outcome.waitingOn(),
                        failing,
                        complete,
                        now));
        if (outcome.complete() && !complete) {
            LOG.info(
                    "clusterversion/version: every manifest of {} applied; the controller running"
                            + " that release says Completed once it has taken over",
                    target.image());
            failures = 0;
            runAgainIn(reconcileInterval);
        } else if (complete) {
            failures = 0;
            runAgainIn(reconcileInterval);
        } else if (onlyWaiting(outcome)) {
            failures = 0;
            runAgainIn(Duration.ZERO);
        } else {
            retryLater();
        }
    }

    /**
     * Runs the acceptance chain, over by the options' acceptance deadline; false (and a retry after
     * a backoff) when the target is refused.
     */
    private boolean accept(Work work) throws InterruptedException {
        DesiredUpdates.Target target = work.target();
        ClusterVersion cv = caches.clusterVersion();
        SyncStatus.Target t = new SyncStatus.Target(target.image(), target.version());
        // status says the target is being retrieved as soon as its retrieval starts
        // (ReleaseAccepted=Unknown), once:
        // a retry of a target refused before goes on showing why until it is accepted or refused
        // anew
        boolean retry =
                status.acceptance() instanceof SyncStatus.Acceptance.Refused
                        && status.target() != null
                        && status.target().image().equals(target.image());
        if (!retry) publish(status.withAcceptance(t, new SyncStatus.Acceptance.Pending()));
        Acceptance.Step<Acceptance.Accepted> outcome =
                acceptance.acceptWithin(
                        options.acceptanceDeadline(),
                        target,
                        cv,
                        work.capabilities(),
                        work.loading(),
                        Optional.ofNullable(lastAccepted));
        if (outcome instanceof Acceptance.Step.Refused<Acceptance.Accepted> refused) {
            accepted = null;
            publish(status.withAcceptance(t, refused.why()));
            retryLater();
            return false;
        }
        Acceptance.Accepted before = accepted;
        accepted = ((Acceptance.Step.Passed<Acceptance.Accepted>) outcome).value();
        acceptedLoading = work.loading();
        lastAccepted = accepted.payload();
        if (options.ownRelease() != null
                && target.image().equals(DesiredUpdates.bare(options.ownRelease()))) {
            running =
                    new Running(
                            accepted.payload().version(), accepted.payload().images().created());
        }
        // new load rules (a feature gate turned on) that leave the same manifests to apply: the
        // pass goes on where it is
        boolean same =
                before != null
                        && before.record().image().equals(target.image())
                        && before.payload()
                                .manifestHash()
                                .equals(accepted.payload().manifestHash());
        if (!same) {
            pass.reset();
            reconcileAttempt = 0;
            failures = 0;
        }
        // a controller taking over an update (or loading its payload again) goes on from the count
        // status reports of it, never back: its own count of what is already done runs beside its
        // first pass and may come later than that pass's first report, or lower
        Progress.Reported reported =
                Progress.reported(
                                cv.getStatus(),
                                target.image(),
                                accepted.payload().version(),
                                accepted.payload().manifests().size())
                        .orElse(new Progress.Reported(0, List.of()));
        publish(
                status.withAcceptance(
                                new SyncStatus.Target(target.image(), accepted.payload().version()),
                                accepted.record())
                        .withImplicitlyEnabled(accepted.implicitlyEnabled())
                        .resumedFrom(reported.done(), reported.waitingOn()));
        return true;
    }

    /**
     * Accepted means recorded in the cluster (status.desired and history[0]), not just reported:
     * the worker applies nothing until the cluster shows it, so that a status write lost to an API
     * error or a kill leads to accepting again, never to applying a target history does not show.
     */
    private boolean awaitRecorded(String image) throws InterruptedException {
        long deadline = System.nanoTime() + RECORDING.toNanos();
        while (!workChanged()) {
            long seen = changes.seen(ClusterCaches.KEY);
            if (recorded(caches.clusterVersion(), image)) return true;
            long left = deadline - System.nanoTime();
            if (left <= 0) return false;
            changes.await(
                    ClusterCaches.KEY,
                    seen,
                    Duration.ofNanos(Math.min(left, Duration.ofSeconds(1).toNanos())));
        }
        return false;
    }

    static boolean recorded(ClusterVersion cv, String image) {
        if (cv == null
                || cv.getStatus() == null
                || cv.getStatus().getDesired() == null
                || cv.getStatus().getHistory() == null) return false;
        List<UpdateHistory> history = cv.getStatus().getHistory();
        return image.equals(cv.getStatus().getDesired().getImage())
                && !history.isEmpty()
                && image.equals(history.get(0).getImage());
    }

    /**
     * A pass that did not complete only because objects are still becoming ready: nothing failed.
     */
    private static boolean onlyWaiting(GraphPass.Outcome outcome) {
        return outcome.errors().stream().allMatch(e -> e.effect() == OperatorLevel.Effect.NONE);
    }

    /**
     * Upstream's error backoff: a sixteenth of the reconcile interval, doubled per failure in a
     * row, at most the interval; 20% jitter.
     */
    private void retryLater() {
        failures++;
        Duration interval =
                failures < 4
                        ? reconcileInterval.dividedBy(16).multipliedBy(1L << failures)
                        : reconcileInterval;
        Duration jittered =
                Duration.ofNanos((long) (interval.toNanos() * (1 + 0.2 * random.nextDouble())));
        LOG.info("clusterversion/version: trying again in {} ms", jittered.toMillis());
        runAgainIn(jittered);
    }

    private synchronized void runAgainIn(Duration wait) {
        next = clock.instant().plus(wait);
    }

    private void publish(SyncStatus s) {
        publish(s, false);
    }

    private void publish(SyncStatus s, boolean progressOnly) {
        status = s;
        report.report(s, progressOnly);
    }

    /** As kill -9 would: stop at once, mid-pass or not. */
    void kill() {
        synchronized (this) {
            stopping = true;
            notifyAll();
        }
        thread.interrupt();
    }

    /**
     * Stops after the task in progress, which stops waiting at once (a replaced controller's pod
     * ends sooner, and its successor starts sooner); waits up to 10 s for it.
     */
    @Override
    public void close() {
        synchronized (this) {
            stopping = true;
            notifyAll();
        }
        changes.signalAll();
        try {
            thread.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        thread.interrupt();
    }
}
