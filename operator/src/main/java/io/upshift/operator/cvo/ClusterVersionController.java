package io.upshift.operator.cvo;

import io.upshift.core.conditions.Conditions;
import io.upshift.api.json.Mappers;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionCapabilitiesStatus;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.core.capability.Capabilities;
import io.upshift.operator.cluster.Events;
import io.upshift.core.cvo.CapabilitySets;
import io.upshift.core.cvo.DesiredUpdates;
import io.upshift.core.cvo.Failing;
import io.upshift.core.cvo.History;
import io.upshift.core.cvo.ImplicitCapabilities;
import io.upshift.core.cvo.OperatorLevel;
import io.upshift.core.cvo.Precondition;
import io.upshift.core.cvo.Preconditions;
import io.upshift.core.cvo.Progress;
import io.upshift.core.cvo.StatusConditions;
import io.upshift.core.cvo.TaskError;
import io.upshift.core.cvo.Upgradeable;
import io.upshift.core.inclusion.ComponentOverride;
import io.upshift.core.inclusion.Inclusion;
import io.upshift.core.inclusion.InclusionRules;
import io.upshift.core.payload.Manifest;
import io.upshift.core.payload.Payload;
import io.upshift.core.release.ReleaseException;
import io.upshift.core.taskgraph.Mode;
import io.upshift.core.taskgraph.Task;
import io.upshift.core.taskgraph.TaskGraph;
import io.upshift.core.version.SemVer;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The cluster-version controller: takes ClusterVersion "version" from the release it runs to the one
 * {@code spec.desiredUpdate} asks for. Each reconcile reads everything it needs from the cluster (crash-only: what
 * it keeps in memory is a cache it can lose at any moment), resolves and accepts the target (pull, version check,
 * signature, preconditions, history), applies the payload's task graph, and writes status when it changed.
 */
public final class ClusterVersionController implements AutoCloseable {

    private static final ObjectMapper JSON = Mappers.JSON;

    private final KubernetesClient client;
    private final ControllerOptions options;
    private final PayloadSource payloads;
    private final AvailableUpdatesSync updates;
    private final Clock clock;
    private final Consumer<String> log;
    private final LiveCache cache;
    private final ManifestApplier applier;
    private final StatusWriter writer;
    private final Events events;
    private final ExecutorService pool;
    private volatile Thread loop;
    private volatile boolean stopping;

    // Caches, rebuilt from the cluster after a restart.
    private String acceptedImage;
    private Payload payload;
    private boolean resuming;
    private int reconcileAttempt;
    private Set<String> implicit = Set.of();
    private Instant lastPass = Instant.EPOCH;
    private final Map<String, Instant> unlevelSince = new ConcurrentHashMap<>();
    private final Set<String> waitingOn = ConcurrentHashMap.newKeySet();
    private Instant lastProgressWrite = Instant.EPOCH;
    private int progressFloor = -1; // tasks known done for the accepted target; -1 until counted
    private final Object statusLock = new Object();

    /**
     * A controller pulling releases with {@code releases}, reading signature stores with {@code stores}, asking the
     * update graph with {@code updateClient} and evaluating risk rules with {@code rules}.
     */
    public static ClusterVersionController create(KubernetesClient client, ControllerOptions options, io.upshift.release.image.Releases releases,
                                                  io.upshift.release.signatures.SignatureStores stores, io.upshift.operator.updates.UpdateClient updateClient,
                                                  io.upshift.core.risk.RuleMatcher rules, Clock clock, Consumer<String> log) {
        PayloadSource payloads = new PayloadSource(releases, options.payloadCache(), client, stores, w -> log.accept("warning: " + w));
        return new ClusterVersionController(client, options, payloads, new AvailableUpdatesSync(updateClient, rules, clock), clock, log);
    }

    ClusterVersionController(KubernetesClient client, ControllerOptions options, PayloadSource payloads,
                             AvailableUpdatesSync updates, Clock clock, Consumer<String> log) {
        this.client = client;
        this.options = options;
        this.payloads = payloads;
        this.updates = updates;
        this.clock = clock;
        this.log = log;
        this.cache = new LiveCache(client, log);
        this.applier = new ManifestApplier(client, cache, log);
        this.writer = new StatusWriter(client, clock, log);
        this.events = new Events(client, clock, "config.openshift.io/v1", "ClusterVersion", "version", "upshift-cluster-version");
        this.pool = Executors.newFixedThreadPool(Math.max(options.updatingWorkers(), options.reconcilingWorkers()), r -> {
            Thread t = new Thread(r, "cvo-worker");
            t.setDaemon(true);
            return t;
        });
    }

    /** Reconciles until {@link #close} (graceful) or {@link #kill} (abrupt). */
    public void start() {
        loop = new Thread(() -> {
            while (!stopping && !Thread.currentThread().isInterrupted()) {
                try {
                    reconcile();
                    Thread.sleep(200);
                } catch (InterruptedException e) {
                    return;
                } catch (KubernetesClientException e) {
                    log.accept("clusterversion/version: API error, will retry: " + e.getMessage());
                    sleep(1000);
                } catch (RuntimeException e) {
                    if (stopping || Thread.currentThread().isInterrupted()) return;
                    log.accept("clusterversion/version: reconcile failed, will retry: " + e);
                    sleep(1000);
                }
            }
        }, "cluster-version-controller");
        loop.setDaemon(true);
        loop.start();
    }

    /** As kill -9 would: stop at once, mid-write or not, with no last word. */
    public void kill() {
        stopping = true;
        if (loop != null) loop.interrupt();
        pool.shutdownNow();
        cache.close();
    }

    /** Graceful shutdown: finish the current step, write the progress reached once more, stop. */
    @Override
    public void close() {
        stopping = true;
        if (loop != null) {
            try {
                loop.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        pool.shutdownNow();
        cache.close();
        try {
            lastWrite();
        } catch (RuntimeException e) {
            log.accept("clusterversion/version: last status write failed: " + e.getMessage());
        }
    }

    /** The progress this controller reached, so that its successor's users see where it stopped. */
    private void lastWrite() {
        ClusterVersion cv = client.resources(ClusterVersion.class).withName("version").get();
        if (cv == null || cv.getStatus() == null || payload == null || progressFloor < 0) return;
        ClusterVersionStatus status = copy(cv.getStatus());
        if (History.mode(status.getHistory() == null ? List.of() : status.getHistory(), acceptedImage) == Mode.RECONCILING) return;
        Progress p = new Progress(payload.version(), progressFloor, payload.manifests().size(), List.of(), resuming);
        status.setConditions(StatusConditions.set(status.getConditions(), "Progressing", "True", "", p.message(), clock.instant()));
        writer.write(cv, status);
    }

    /** API writes (creates, patches, deletes, status) this controller made: for the no-write-when-level tests. */
    public long writes() {
        return applier.writes.get() + writer.writes.get();
    }

    /** One reconcile: exposed for tests that drive the controller step by step. */
    public void reconcile() throws InterruptedException {
        ClusterVersion cv = client.resources(ClusterVersion.class).withName("version").get();
        if (cv == null) return;
        ClusterVersionStatus status = cv.getStatus() == null ? new ClusterVersionStatus() : copy(cv.getStatus());
        Instant now = clock.instant();
        status.setObservedGeneration(cv.getMetadata().getGeneration() == null ? 1L : cv.getMetadata().getGeneration());
        if (status.getVersionHash() == null) status.setVersionHash("");
        if (status.getDesired() == null) status.setDesired(new Release());
        if (status.getHistory() == null) status.setHistory(new ArrayList<>());
        updates.sync(cv, status);
        Capabilities caps = capabilities(cv, status); // always the full set: the writer trims what an older CRD rejects

        DesiredUpdates.Resolution r = DesiredUpdates.resolve(cv, options.ownRelease());
        status.setConditions(StatusConditions.set(status.getConditions(), "Invalid", r.valid() ? "False" : "True",
                r.valid() ? "" : r.invalidReason(), r.valid() ? "" : r.invalidMessage(), now));
        if (!r.valid()) {
            cv = writer.write(cv, status);
            return;
        }
        DesiredUpdates.Target target = r.target();
        // Accepted means recorded in the cluster (desired and history[0]), not just remembered: a status write lost
        // to an API error or a kill must lead to accepting again, never to applying a target history does not show.
        if (payload == null || !target.image().equals(acceptedImage) || !recorded(status, target.image())) {
            if (!accept(cv, status, target, now)) {
                writer.write(cv, status);
                Thread.sleep(1000);
                return;
            }
            cv = writer.write(cv, status);
        }
        Mode mode = History.mode(status.getHistory(), acceptedImage);
        if (mode == Mode.RECONCILING && clock.instant().isBefore(lastPass.plus(options.reconcileInterval()))) {
            finishStatus(cv, status, mode, null, null);
            return;
        }
        pass(cv, status, mode, caps);
    }

    private static boolean recorded(ClusterVersionStatus status, String image) {
        return image.equals(status.getDesired().getImage()) && !status.getHistory().isEmpty() && image.equals(status.getHistory().get(0).getImage());
    }

    /** Pulls, checks and records the target; false (with ReleaseAccepted=False) when it cannot be applied. */
    private boolean accept(ClusterVersion cv, ClusterVersionStatus status, DesiredUpdates.Target target, Instant now) throws InterruptedException {
        String image = target.image();
        List<UpdateHistory> history = status.getHistory();
        boolean install = history.isEmpty();
        boolean resume = image.equals(status.getDesired().getImage()) && !history.isEmpty() && image.equals(history.get(0).getImage());
        String step = "RetrievePayload";
        try {
            events.normal("RetrievePayload", "Retrieving and verifying payload version=\"" + target.version() + "\" image=\"" + image + "\"");
            String pinned = payloads.pin(image);
            step = "LoadPayload";
            Payload loaded = payloads.load(pinned, InclusionRules.defaults());
            if (!target.version().isEmpty() && !target.version().equals(loaded.version())) {
                String msg = "release image version " + loaded.version() + " does not match the expected upstream version " + target.version();
                events.warning("VerifyPayloadVersionFailed", msg);
                status.setConditions(StatusConditions.set(status.getConditions(), "ReleaseAccepted", "False", "VerifyPayloadVersion", msg, now));
                return false;
            }
            List<String> risks = new ArrayList<>();
            boolean verified = false;
            if (!install && !resume) {
                Payload current = currentPayload(status);
                if (current != null) implicit = ImplicitCapabilities.of(current.manifests(), loaded.manifests(), enabled(cv, status, Set.of()));
                step = "RetrievePayload";
                try {
                    if (current == null) throw new ReleaseException(io.upshift.core.release.Reason.VERIFIER_NOT_CONFIGURED, "the running release's payload is not available to verify with");
                    payloads.verify(pinned, current, signatureStores(cv));
                    verified = true;
                } catch (ReleaseException e) {
                    if (!target.force()) {
                        String msg = "Retrieving payload failed version=\"" + target.version() + "\" image=\"" + image + "\" failure=The update cannot be verified: " + e;
                        events.warning("RetrievePayloadFailed", msg);
                        status.setConditions(StatusConditions.set(status.getConditions(), "ReleaseAccepted", "False", "RetrievePayload", msg, now));
                        return false;
                    }
                    risks.add("The update cannot be verified: " + e);
                    events.warning("VerifyPayloadFailed", "Forced through an unverified payload: " + e);
                }
                step = "PreconditionChecks";
                String currentVersion = status.getDesired().getVersion();
                if (currentVersion != null && SemVer.isValid(currentVersion)) {
                    List<Precondition> results = Preconditions.check(new Preconditions.Input(SemVer.parse(currentVersion), SemVer.parse(loaded.version()),
                            history, Conditions.CLUSTER.find(status.getConditions(), "Upgradeable"),
                            status.getAvailableUpdates() == null ? List.of() : status.getAvailableUpdates(),
                            status.getConditionalUpdates() == null ? List.of() : status.getConditionalUpdates(), cv.getSpec().getChannel()));
                    List<String> blocks = new ArrayList<>();
                    for (Precondition p : results) {
                        String text = "Precondition \"" + p.name() + "\" failed because of \"" + p.reason() + "\": " + p.message();
                        if (p.blocking() && !target.force()) blocks.add(text);
                        else risks.add(p.name() + ": " + p.message());
                    }
                    if (!blocks.isEmpty()) {
                        String msg = "Preconditions failed for payload loaded version=\"" + loaded.version() + "\" image=\"" + image + "\": " + String.join("; ", blocks);
                        events.warning("PreconditionBlock", msg);
                        status.setConditions(StatusConditions.set(status.getConditions(), "ReleaseAccepted", "False", "PreconditionChecks", msg, now));
                        return false;
                    }
                    events.normal(risks.isEmpty() ? "PreconditionsPassed" : "PreconditionWarn",
                            risks.isEmpty() ? "preconditions passed for payload loaded version=\"" + loaded.version() + "\"" : String.join("; ", risks));
                }
            }
            if (!resume) {
                status.setHistory(History.begin(history, loaded.version(), image, verified, String.join("\n", risks), now));
            }
            Release desired = new Release();
            desired.setVersion(loaded.version());
            desired.setImage(image);
            if (!loaded.metadata().url().isEmpty()) desired.setUrl(loaded.metadata().url());
            if (!loaded.metadata().channels().isEmpty()) desired.setChannels(new ArrayList<>(new TreeSet<>(loaded.metadata().channels())));
            status.setDesired(desired);
            status.setVersionHash(loaded.manifestHash());
            status.setConditions(StatusConditions.set(status.getConditions(), "ReleaseAccepted", "True", "PayloadLoaded",
                    "Payload loaded version=\"" + loaded.version() + "\" image=\"" + image + "\" architecture=\"amd64\"", now));
            events.normal("PayloadLoaded", "Payload loaded version=\"" + loaded.version() + "\" image=\"" + image + "\"");
            payload = loaded;
            acceptedImage = image;
            resuming = resume && History.PARTIAL.equals(status.getHistory().get(0).getState());
            reconcileAttempt = 0;
            progressFloor = -1;
            unlevelSince.clear();
            return true;
        } catch (ReleaseException e) {
            String msg = (step.equals("LoadPayload") ? "Loading payload failed" : "Retrieving payload failed") + " version=\"" + target.version()
                    + "\" image=\"" + image + "\" failure=" + e;
            events.warning(step + "Failed", msg);
            status.setConditions(StatusConditions.set(status.getConditions(), "ReleaseAccepted", "False", step, msg, now));
            return false;
        }
    }

    /** The payload of the release the cluster last completed: the trust anchor for verifying the next one. */
    private Payload currentPayload(ClusterVersionStatus status) {
        Optional<UpdateHistory> done = History.lastCompleted(status.getHistory());
        if (done.isEmpty()) return null;
        try {
            return payloads.load(payloads.pin(done.get().getImage()), InclusionRules.defaults());
        } catch (ReleaseException e) {
            log.accept("clusterversion/version: the running release " + done.get().getImage() + " cannot be loaded: " + e);
            return null;
        }
    }

    private List<java.net.URI> signatureStores(ClusterVersion cv) {
        List<java.net.URI> out = new ArrayList<>();
        if (cv.getSpec().getSignatureStores() != null) cv.getSpec().getSignatureStores().forEach(s -> out.add(java.net.URI.create(s.getUrl())));
        return out;
    }

    /** One pass over the task graph, writing progress as it goes. */
    private void pass(ClusterVersion cv, ClusterVersionStatus status, Mode mode, Capabilities caps) throws InterruptedException {
        InclusionRules rules = InclusionRules.none().withCapabilities(caps).withOverrides(overrides(cv));
        TaskGraph graph = TaskGraph.build(payload.manifests(), mode, reconcileAttempt);
        int workers = mode == Mode.RECONCILING ? options.reconcilingWorkers() : mode == Mode.INITIALIZING ? graph.nodes().size() : options.updatingWorkers();
        if (mode != Mode.RECONCILING && progressFloor < 0) progressFloor = alreadyDone(rules, mode);
        AtomicInteger done = new AtomicInteger();
        ClusterVersion[] latest = {cv};
        // ClusterOperators are created first, so that they are visible (and report) before their run-level comes.
        for (Manifest m : payload.manifests()) {
            if ("ClusterOperator".equals(m.kind()) && Inclusion.decide(m, rules).included()) {
                try {
                    applier.apply(m, mode);
                } catch (KubernetesClientException e) {
                    log.accept("clusteroperator/" + m.name() + ": not pre-created: " + e.getMessage());
                }
            }
        }
        GraphRun.Result result = GraphRun.run(graph, Math.max(1, workers), pool, t -> runTask(t, mode, rules), () -> {
            progress(latest, status, mode, done.incrementAndGet(), graph.taskCount());
        });
        lastPass = clock.instant();
        if (mode == Mode.RECONCILING) reconcileAttempt++;
        if (!result.complete()) {
            log.accept("clusterversion/version: " + mode + " pass for " + payload.version() + ": " + result.done() + " of " + graph.taskCount()
                    + " done; " + result.errors().size() + " errors" + (result.errors().isEmpty() ? "" : ", first: " + result.errors().get(0).message())
                    + (result.notStarted().isEmpty() ? "" : "; " + result.notStarted().size() + " incomplete task nodes, beginning with " + result.notStarted().get(0)));
        }
        synchronized (statusLock) {
            finishStatus(latest[0], status, mode, result, graph);
        }
    }

    /**
     * Tasks already done when a pass starts: what a restarted controller, or the next pass, reports as done from the
     * start instead of counting up from 0 again. Reads only.
     */
    private int alreadyDone(InclusionRules rules, Mode mode) {
        int n = 0;
        for (Manifest m : payload.manifests()) {
            try {
                if (!Inclusion.decide(m, rules).included()) n++;
                else if (applier.applied(m) && ("ClusterOperator".equals(m.kind()) ? operatorLevel(m, mode).isEmpty() : readiness(m, null).isEmpty())) n++;
            } catch (KubernetesClientException e) {
                // counted as not done; the pass itself will report what is wrong
            }
        }
        return n;
    }

    private Optional<TaskError> runTask(Task t, Mode mode, InclusionRules rules) {
        Manifest m = t.manifest();
        if (!Inclusion.decide(m, rules).included()) return Optional.empty();
        String name = "ClusterOperator".equals(m.kind()) ? m.name() : Readiness.describe(m);
        // Like the reference's per-task backoff: a failed API call is retried a few times before the task fails.
        GenericKubernetesResource written;
        for (int attempt = 0; ; attempt++) {
            try {
                written = applier.apply(m, mode).written();
                break;
            } catch (KubernetesClientException e) {
                if (attempt < 4 && retriable(e)) {
                    if (!sleep(100L << attempt)) return Optional.of(error(name, "Interrupted", "interrupted", OperatorLevel.Effect.NONE));
                    continue;
                }
                String why = e.getStatus() != null && e.getStatus().getMessage() != null ? e.getStatus().getMessage() : e.getMessage();
                return Optional.of(error(name, "UpdatePayloadFailed", "Could not update " + Readiness.describe(m) + " (" + t.index() + " of "
                        + payload.manifests().size() + ", " + m.file() + "): " + why, OperatorLevel.Effect.FAIL));
            }
        }
        long deadline = System.nanoTime() + options.taskWait().toNanos();
        boolean isOperator = "ClusterOperator".equals(m.kind());
        if (isOperator) waitingOn.add(m.name());
        try {
            while (true) {
                Optional<TaskError> e;
                try {
                    e = isOperator ? operatorLevel(m, mode) : readiness(m, written);
                } catch (KubernetesClientException apiError) {
                    e = Optional.of(error(name, "ApiUnavailable", "cannot read " + Readiness.describe(m) + ": " + apiError.getMessage(), OperatorLevel.Effect.NONE));
                }
                if (e.isEmpty()) {
                    unlevelSince.remove(name);
                    return e;
                }
                if (System.nanoTime() > deadline || e.get().effect() == OperatorLevel.Effect.FAIL && !isOperator) return e;
                try {
                    Thread.sleep(100);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return e;
                }
            }
        } finally {
            if (isOperator) waitingOn.remove(m.name());
        }
    }

    /** Server errors, conflicts, throttling and lost connections are worth another try; rejections are not. */
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
        m.object().path("status").path("versions").forEach(v -> expected.put(v.path("name").asText(), v.path("version").asText()));
        GenericKubernetesResource generic = cache.get(m);
        ClusterOperator live = generic == null ? null : JSON.convertValue(generic, ClusterOperator.class);
        OperatorLevel level = OperatorLevel.check(m.name(), expected, live, mode == Mode.INITIALIZING);
        return level.level() ? Optional.empty() : Optional.of(error(m.name(), level.reason(), level.message(), level.effect()));
    }

    /** Whether the object is done; {@code written} is this task's write, if it wrote (see {@link Readiness#observed}). */
    private Optional<TaskError> readiness(Manifest m, GenericKubernetesResource written) {
        Readiness.NotReady r = Readiness.check(m, Readiness.observed(cache.get(m), written));
        return r == null ? Optional.empty() : Optional.of(error(Readiness.describe(m), r.reason(), r.message(), r.effect()));
    }

    private TaskError error(String name, String reason, String message, OperatorLevel.Effect effect) {
        Instant since = unlevelSince.computeIfAbsent(name, k -> clock.instant());
        return new TaskError(name, reason, message, effect, since);
    }

    private void progress(ClusterVersion[] latest, ClusterVersionStatus status, Mode mode, int done, int total) {
        if (mode == Mode.RECONCILING) return;
        Instant now = clock.instant();
        synchronized (statusLock) {
            if (now.isBefore(lastProgressWrite.plus(options.progressInterval())) || stopping) return;
            lastProgressWrite = now;
            progressFloor = Math.max(progressFloor, done);
            Progress p = new Progress(payload.version(), progressFloor, total, new ArrayList<>(new TreeSet<>(waitingOn)), resuming);
            status.setConditions(StatusConditions.set(status.getConditions(), "Progressing", "True", "", p.message(), now));
            try {
                latest[0] = writer.write(latest[0], status);
            } catch (KubernetesClientException e) {
                log.accept("clusterversion/version: progress not written: " + e.getMessage());
            }
        }
    }

    /** Conditions after a pass (or between reconcile passes), then one write. */
    private void finishStatus(ClusterVersion cv, ClusterVersionStatus status, Mode mode, GraphRun.Result result, TaskGraph graph) {
        Instant now = clock.instant();
        String version = payload.version();
        List<ClusterOperator> operators = client.resources(ClusterOperator.class).list().getItems();
        Upgradeable u = Upgradeable.of(operators, cv.getSpec().getOverrides());
        status.setConditions(StatusConditions.set(status.getConditions(), "Upgradeable", u.status(), u.reason(), u.message(), now));
        if (result != null) {
            Failing failing = Failing.of(result.errors(), now, options.thresholds());
            status.setConditions(StatusConditions.set(status.getConditions(), "Failing", failing.status(), failing.reason(), failing.message(), now));
            if (result.complete()) {
                resuming = false;
                if (mode != Mode.RECONCILING) {
                    status.setHistory(History.complete(status.getHistory(), acceptedImage, now));
                    events.normal("UpdateCompleted", "Cluster version is " + version);
                }
                status.setConditions(StatusConditions.set(status.getConditions(), "Available", "True", "", "Done applying " + version, now));
                status.setConditions(StatusConditions.set(status.getConditions(), "Progressing", "False", "", "Cluster version is " + version, now));
            } else if (mode != Mode.RECONCILING) {
                String message = "True".equals(failing.status()) ? "Unable to apply " + version + ": " + failing.message()
                        : new Progress(version, Math.max(progressFloor, result.done()), graph.taskCount(), names(result.errors()), resuming).message();
                status.setConditions(StatusConditions.set(status.getConditions(), "Progressing", "True",
                        "True".equals(failing.status()) ? failing.reason() : "", message, now));
            }
            if (Conditions.CLUSTER.find(status.getConditions(), "Available") == null) {
                status.setConditions(StatusConditions.set(status.getConditions(), "Available", "False", "", "", now));
            }
        }
        writer.write(cv, status);
    }

    private static List<String> names(List<TaskError> errors) {
        return errors.stream().filter(e -> e.effect() == OperatorLevel.Effect.NONE || e.effect() == OperatorLevel.Effect.FAIL_AFTER_INTERVAL)
                .map(TaskError::name).sorted().distinct().toList();
    }

    /** Capabilities the spec asks for, plus those enabled before (never disabled again) and {@code implicitly} enabled ones. */
    private static Capabilities enabled(ClusterVersion cv, ClusterVersionStatus status, Set<String> implicitly) {
        var spec = cv.getSpec().getCapabilities();
        List<String> previously = status.getCapabilities() == null || status.getCapabilities().getEnabledCapabilities() == null
                ? List.of() : status.getCapabilities().getEnabledCapabilities();
        return CapabilitySets.enabled(spec == null ? null : spec.getBaselineCapabilitySet(),
                spec == null || spec.getAdditionalEnabledCapabilities() == null ? List.of() : spec.getAdditionalEnabledCapabilities(), previously, implicitly);
    }

    private Capabilities capabilities(ClusterVersion cv, ClusterVersionStatus status) {
        Capabilities caps = enabled(cv, status, implicit);
        Instant now = clock.instant();
        ClusterVersionCapabilitiesStatus s = new ClusterVersionCapabilitiesStatus();
        s.setEnabledCapabilities(new ArrayList<>(new TreeSet<>(caps.enabled())));
        s.setKnownCapabilities(new ArrayList<>(new TreeSet<>(caps.known())));
        status.setCapabilities(s);
        status.setConditions(StatusConditions.set(status.getConditions(), "ImplicitlyEnabledCapabilities", implicit.isEmpty() ? "False" : "True",
                implicit.isEmpty() ? "AsExpected" : "CapabilitiesImplicitlyEnabled",
                implicit.isEmpty() ? "Capabilities match configured spec" : "The following capabilities could not be disabled: " + String.join(", ", implicit), now));
        return caps;
    }

    private static List<ComponentOverride> overrides(ClusterVersion cv) {
        List<ComponentOverride> out = new ArrayList<>();
        if (cv.getSpec().getOverrides() == null) return out;
        cv.getSpec().getOverrides().forEach(o -> out.add(new ComponentOverride(o.getKind(), o.getGroup(), o.getNamespace(), o.getName(), Boolean.TRUE.equals(o.getUnmanaged()))));
        return out;
    }

    private static ClusterVersionStatus copy(ClusterVersionStatus s) {
        return JSON.convertValue(JSON.valueToTree(s), ClusterVersionStatus.class);
    }

}
