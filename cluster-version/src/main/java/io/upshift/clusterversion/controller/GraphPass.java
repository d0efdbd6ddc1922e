package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.upshift.api.json.Mappers;
import io.upshift.clusterversion.model.ApplyRefusal;
import io.upshift.clusterversion.model.Handover;
import io.upshift.clusterversion.model.OperatorLevel;
import io.upshift.clusterversion.model.TaskError;
import io.upshift.releases.inclusion.Inclusion;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.releases.taskgraph.Task;
import io.upshift.releases.taskgraph.TaskGraph;
import io.upshift.runtime.kube.Changes;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One pass over a payload's task graph: each task applies its manifest and waits, woken by every
 * cache change, until its object is ready (ClusterOperators: until they report the payload's
 * versions), at most {@code taskWait}; a failed API call is tried again a few times first. Tasks
 * run on a bounded number of workers, run-level by run-level. A pass stops early when {@code
 * cancelled} says so (a new target, or the controller stopping).
 */
final class GraphPass {
    private static final Logger LOG = LoggerFactory.getLogger(GraphPass.class);

    /**
     * How the pass ended, and what the status shows of it. {@code handsOver}: the pass applied a
     * Deployment running the payload's release image, the controller's own, which replaces this
     * controller ({@link Handover}).
     */
    record Outcome(
            int done,
            int total,
            List<TaskError> errors,
            List<String> waitingOn,
            boolean complete,
            boolean handsOver) {}

    /** How far a pass is, after each task. */
    record Progress(int done, int total, List<String> waitingOn) {}

    private final ManifestApplier applier;
    private final LiveCache cache;
    private final Changes changes;
    private final ExecutorService pool;
    private final ControllerOptions options;
    private final Clock clock;

    /**
     * Since when each object has not been ready, across passes over the same target: Failing's
     * thresholds count from it.
     */
    private final Map<String, Instant> unlevelSince = new ConcurrentHashMap<>();

    private final Set<String> waitingOn = ConcurrentHashMap.newKeySet();

    /** The release image of the payload the pass runs: its controller Deployment runs it. */
    private volatile String releaseImage;

    /** The run-level times of the update being applied: each task reports its start and end. */
    private final RunLevelClock levels;

    GraphPass(
            ManifestApplier applier,
            LiveCache cache,
            Changes changes,
            ExecutorService pool,
            ControllerOptions options,
            Clock clock) {
        this.applier = applier;
        this.cache = cache;
        this.changes = changes;
        this.pool = pool;
        this.options = options;
        this.clock = clock;
        this.levels = new RunLevelClock(clock);
    }

    /** When each run-level of the update started and was done. */
    RunLevelClock levels() {
        return levels;
    }

    /** A new target: waiting times start again. */
    void reset() {
        unlevelSince.clear();
    }

    /**
     * Runs one pass. {@code carried}: what the last report of this target said it waits on; each
     * name stays in the reports of this pass until its task is done here (or the pass ends and says
     * anew), so that a pass that has not yet reached an operator it waited on does not report it
     * level, then waiting again when it gets there: a message that would change and change back
     * within a pass, and a status write each way.
     */
    Outcome run(
            Payload payload,
            Mode mode,
            int attempt,
            InclusionRules rules,
            List<String> carried,
            Consumer<Progress> progress,
            BooleanSupplier cancelled)
            throws InterruptedException {
        long start = System.nanoTime();
        releaseImage = payload.releaseImage();
        TaskGraph graph = TaskGraph.build(payload.manifests(), mode, attempt);
        int workers =
                mode == Mode.RECONCILING
                        ? options.reconcilingWorkers()
                        : mode == Mode.INITIALIZING
                                ? graph.nodes().size()
                                : options.updatingWorkers();
        Set<Manifest> included = included(payload, rules);
        // what is already done only sets where progress counts from: counted beside the pass, not
        // before it
        AtomicInteger floor = new AtomicInteger();
        if (mode != Mode.RECONCILING) {
            Thread counter =
                    new Thread(
                            () -> {
                                try {
                                    floor.accumulateAndGet(
                                            alreadyDone(payload, included, mode), Math::max);
                                } catch (IllegalStateException e) {
                                    // the client closed under it: this controller was stopped, and
                                    // its successor counts again
                                }
                            },
                            "cluster-version-count");
            counter.setDaemon(true);
            counter.start();
        }
        AtomicInteger done = new AtomicInteger();
        Set<String> stillWaiting = ConcurrentHashMap.newKeySet();
        stillWaiting.addAll(carried);
        GraphRun.Result result =
                GraphRun.run(
                        graph,
                        Math.max(1, workers),
                        pool,
                        node -> precreateOperators(node, included, cancelled),
                        t -> {
                            Optional<TaskError> e =
                                    timed(
                                            t,
                                            () ->
                                                    cancelled.getAsBoolean()
                                                            ? Optional.of(cancelledError(t))
                                                            : included.contains(t.manifest())
                                                                    ? runTask(
                                                                            t, payload, mode,
                                                                            cancelled)
                                                                    : Optional.empty());
                            if (e.isEmpty()) stillWaiting.remove(name(t.manifest()));
                            return e;
                        },
                        () -> {
                            Set<String> shown = new TreeSet<>(waitingOn);
                            shown.addAll(stillWaiting);
                            progress.accept(
                                    new Progress(
                                            Math.max(floor.get(), done.incrementAndGet()),
                                            graph.taskCount(),
                                            List.copyOf(shown)));
                        });
        long ms = (System.nanoTime() - start) / 1_000_000;
        if (result.complete()) {
            LOG.info(
                    "clusterversion/version: {} pass for {} complete in {} ms ({} tasks)",
                    mode,
                    payload.version(),
                    ms,
                    graph.taskCount());
        } else {
            LOG.info(
                    "clusterversion/version: {} pass for {} ended after {} ms: {} of {} done; {}"
                            + " errors{}{}",
                    mode,
                    payload.version(),
                    ms,
                    result.done(),
                    graph.taskCount(),
                    result.errors().size(),
                    result.errors().isEmpty() ? "" : ", first: " + result.errors().get(0).message(),
                    result.notStarted().isEmpty()
                            ? ""
                            : "; "
                                    + result.notStarted().size()
                                    + " incomplete task nodes, beginning with "
                                    + result.notStarted().get(0));
        }
        return new Outcome(
                Math.max(floor.get(), result.done()),
                graph.taskCount(),
                result.errors(),
                waitingNames(result.errors()),
                result.complete(),
                included.stream().anyMatch(m -> Handover.runsRelease(m, payload.releaseImage())));
    }

    /** Runs one task, telling the run-level clock when it starts and when it is done. */
    private Optional<TaskError> timed(Task t, Supplier<Optional<TaskError>> task) {
        levels.started(t);
        Optional<TaskError> e = task.get();
        if (e.isEmpty()) levels.done(t);
        return e;
    }

    /**
     * The manifests the cluster's overrides and capabilities let apply this pass, decided once per
     * pass.
     */
    private static Set<Manifest> included(Payload payload, InclusionRules rules) {
        Set<Manifest> out = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Manifest m : payload.manifests())
            if (Inclusion.decide(m, rules).included()) out.add(m);
        return out;
    }

    /**
     * As upstream's sync worker: as a node starts, the ClusterOperators among its tasks are created
     * if missing, so that they are visible (and their operators can report) while the node's other
     * manifests are applied; not at the start of the pass, where operators of later run-levels
     * would show long before anything of theirs exists. A failure is only logged: the
     * ClusterOperator's own task applies it again.
     */
    private void precreateOperators(
            TaskGraph.Node node, Set<Manifest> included, BooleanSupplier cancelled) {
        for (Task t : node.tasks()) {
            Manifest m = t.manifest();
            if (!"ClusterOperator".equals(m.kind())
                    || !included.contains(m)
                    || cancelled.getAsBoolean()) continue;
            try {
                if (applier.precreate(m)) LOG.info("clusteroperator/{}: pre-created", m.name());
            } catch (KubernetesClientException e) {
                LOG.info("clusteroperator/{}: not pre-created: {}", m.name(), e.getMessage());
            }
        }
    }

    /**
     * Tasks already done when a pass starts: what a restarted controller, or the next pass, reports
     * as done from the start instead of counting up from 0 again. Reads only.
     */
    private int alreadyDone(Payload payload, Set<Manifest> included, Mode mode) {
        int n = 0;
        for (Manifest m : payload.manifests()) {
            try {
                if (!included.contains(m)) n++;
                else if (applier.applied(m)
                        && ("ClusterOperator".equals(m.kind())
                                ? operatorLevel(m, mode).isEmpty()
                                : readiness(m, mode, null).isEmpty())) n++;
            } catch (KubernetesClientException | IllegalArgumentException e) {
                // counted as not done; the pass itself will report what is wrong
            }
        }
        return n;
    }

    private Optional<TaskError> runTask(
            Task t, Payload payload, Mode mode, BooleanSupplier cancelled) {
        Manifest m = t.manifest();
        String name = name(m);
        // As the reference's per-task backoff: a failed API call (a conflict included: the next try
        // reads again and
        // recomputes) is tried a few times before the task fails.
        GenericKubernetesResource written;
        for (int attempt = 0; ; attempt++) {
            try {
                written = applier.apply(m, mode).written();
                break;
            } catch (KubernetesClientException e) {
                if (attempt < 4 && retriable(e)) {
                    if (!sleep(100L << attempt))
                        return Optional.of(
                                error(
                                        name,
                                        "Interrupted",
                                        "interrupted",
                                        OperatorLevel.Effect.NONE));
                    continue;
                }
                String why =
                        e.getStatus() != null && e.getStatus().getMessage() != null
                                ? e.getStatus().getMessage()
                                : e.getMessage();
                ApplyRefusal refusal = ApplyRefusal.of(e.getCode(), why);
                return Optional.of(
                        error(
                                name,
                                refusal.reason(),
                                "Could not update "
                                        + Readiness.describe(m)
                                        + " ("
                                        + t.index()
                                        + " of "
                                        + payload.manifests().size()
                                        + ", "
                                        + m.file()
                                        + "): "
                                        + refusal.cause(),
                                OperatorLevel.Effect.FAIL));
            } catch (IllegalArgumentException e) {
                return Optional.of(
                        error(
                                name,
                                "UpdatePayloadFailed",
                                "Could not update "
                                        + Readiness.describe(m)
                                        + " ("
                                        + t.index()
                                        + " of "
                                        + payload.manifests().size()
                                        + ", "
                                        + m.file()
                                        + "): "
                                        + e.getMessage(),
                                OperatorLevel.Effect.FAIL));
            }
        }
        // a manifest marked for deletion is done once its delete is issued (or its object is gone),
        // as upstream's
        if (m.markedForDeletion()) return Optional.empty();
        return awaitReady(m, name, mode, written, cancelled);
    }

    /** How a task's object is named where the pass waits on it: a ClusterOperator by its name. */
    private static String name(Manifest m) {
        return "ClusterOperator".equals(m.kind()) ? m.name() : Readiness.describe(m);
    }

    /**
     * Waits, woken by each change of its object in the cache, until the object is ready, fails, or
     * {@code taskWait} passes.
     */
    private Optional<TaskError> awaitReady(
            Manifest m,
            String name,
            Mode mode,
            GenericKubernetesResource written,
            BooleanSupplier cancelled) {
        // the injected clock's time: a test's runs faster than the wall's
        Instant deadline = clock.instant().plus(options.taskWait());
        long started = System.nanoTime();
        boolean isOperator = "ClusterOperator".equals(m.kind());
        if (isOperator) waitingOn.add(m.name());
        try {
            String key = LiveCache.key(m);
            while (true) {
                long seen = changes.seen(key);
                Optional<TaskError> e;
                try {
                    e = isOperator ? operatorLevel(m, mode) : readiness(m, mode, written);
                } catch (KubernetesClientException apiError) {
                    e =
                            Optional.of(
                                    error(
                                            name,
                                            "ApiUnavailable",
                                            "cannot read "
                                                    + Readiness.describe(m)
                                                    + ": "
                                                    + apiError.getMessage(),
                                            OperatorLevel.Effect.NONE));
                }
                if (e.isEmpty()) {
                    unlevelSince.remove(name);
                    LOG.debug(
                            "{}: ready after {} ms",
                            name,
                            (System.nanoTime() - started) / 1_000_000);
                    return e;
                }
                long left = Duration.between(clock.instant(), deadline).toNanos();
                if (left <= 0
                        || cancelled.getAsBoolean()
                        || (e.get().effect() == OperatorLevel.Effect.FAIL && !isOperator)) return e;
                try {
                    changes.await(
                            key,
                            seen,
                            Duration.ofNanos(Math.min(left, Duration.ofSeconds(1).toNanos())));
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return e;
                }
            }
        } finally {
            if (isOperator) waitingOn.remove(m.name());
        }
    }

    /**
     * Server errors, conflicts, throttling and lost connections are worth another try; rejections
     * are not.
     */
    private static boolean retriable(KubernetesClientException e) {
        int code = e.getCode();
        return code < 400 || code == 408 || code == 409 || code == 429 || code >= 500;
    }

    private static boolean sleep(long ms) {
        try {
            Thread.sleep(ms);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private Optional<TaskError> operatorLevel(Manifest m, Mode mode) {
        Map<String, String> expected = new LinkedHashMap<>();
        m.object()
                .path("status")
                .path("versions")
                .forEach(v -> expected.put(v.path("name").asText(), v.path("version").asText()));
        GenericKubernetesResource generic = cache.get(m);
        ClusterOperator live =
                generic == null ? null : Mappers.JSON.convertValue(generic, ClusterOperator.class);
        OperatorLevel level =
                OperatorLevel.check(m.name(), expected, live, mode == Mode.INITIALIZING);
        return level.level()
                ? Optional.empty()
                : Optional.of(error(m.name(), level.reason(), level.message(), level.effect()));
    }

    /**
     * Whether the object is done; {@code written} is this task's write, if it wrote (see {@link
     * Readiness#observed}).
     */
    private Optional<TaskError> readiness(
            Manifest m, Mode mode, GenericKubernetesResource written) {
        Readiness.NotReady r =
                Readiness.check(m, Readiness.observed(cache.get(m), written), mode, releaseImage);
        return r == null
                ? Optional.empty()
                : Optional.of(error(Readiness.describe(m), r.reason(), r.message(), r.effect()));
    }

    private TaskError cancelledError(Task t) {
        return error(
                t.manifest().name(),
                "Cancelled",
                "the pass was cancelled",
                OperatorLevel.Effect.NONE);
    }

    private TaskError error(
            String name, String reason, String message, OperatorLevel.Effect effect) {
        Instant since = unlevelSince.computeIfAbsent(name, k -> clock.instant());
        return new TaskError(name, reason, message, effect, since);
    }

    /** The ClusterOperators a pass that did not complete was waiting on. */
    private static List<String> waitingNames(List<TaskError> errors) {
        return errors.stream()
                .filter(
                        e ->
                                e.effect() == OperatorLevel.Effect.NONE
                                        || e.effect() == OperatorLevel.Effect.FAIL_AFTER_INTERVAL)
                .map(TaskError::name)
                .sorted()
                .distinct()
                .toList();
    }
}
