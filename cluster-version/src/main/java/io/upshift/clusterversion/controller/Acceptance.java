package io.upshift.clusterversion.controller;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.SignatureStore;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoDuration;
import io.upshift.base.gofmt.GoQuote;
import io.upshift.base.version.SemVer;
import io.upshift.clusterversion.model.DesiredUpdates;
import io.upshift.clusterversion.model.History;
import io.upshift.clusterversion.model.Precondition;
import io.upshift.clusterversion.model.PreconditionSummary;
import io.upshift.clusterversion.model.Preconditions;
import io.upshift.clusterversion.model.SyncStatus;
import io.upshift.releases.capability.Capabilities;
import io.upshift.releases.capability.ImplicitCapabilities;
import io.upshift.releases.image.ControllerDeployment;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.signatures.ConfiguredStore;
import io.upshift.releases.verify.VerifierConfig;
import io.upshift.runtime.kube.Events;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Accepting a target release, as a chain of named steps read top to bottom in {@link #accept}:
 * resolve the pullspec to a digest, retrieve and load the payload, verify its version, verify its
 * signature with the trust of the release the cluster runs, check the preconditions. Each step
 * passes its result on or refuses the target with the reason the ReleaseAccepted condition shows;
 * {@code force} turns a failed verification or blocking precondition into an accepted risk.
 * Recording the acceptance in history is the last step; the status recorder makes it, from the
 * outcome.
 */
final class Acceptance {
    private static final Logger LOG = LoggerFactory.getLogger(Acceptance.class);

    /** The outcome of a step or of the chain: passed on with a value, or refused. */
    sealed interface Step<T> {
        record Passed<T>(T value) implements Step<T> {}

        record Refused<T>(SyncStatus.Acceptance.Refused why) implements Step<T> {}
    }

    /**
     * The accepted target: its payload, what history records, the capabilities it cannot disable.
     */
    record Accepted(
            Payload payload,
            SyncStatus.Acceptance.Accepted record,
            Set<String> implicitlyEnabled) {}

    /**
     * What the verification and preconditions steps found that force accepted: the history entry's
     * accepted risks.
     */
    private record Checked(boolean verified, List<String> risks) {}

    /** Failures of the payload's content, once the image was retrieved. */
    private static final Set<Reason> LOAD_FAILURES =
            Set.of(
                    Reason.PAYLOAD_NOT_FOUND,
                    Reason.RELEASE_METADATA_INVALID,
                    Reason.RELEASE_METADATA_WRONG_KIND,
                    Reason.IMAGE_REFERENCES_INVALID,
                    Reason.IMAGE_REFERENCES_MISMATCH,
                    Reason.MANIFEST_INVALID);

    private final PayloadSource payloads;
    private final Events events;
    private final String architecture;

    /**
     * @param architecture the controller's own (GOARCH names): the architecture of any release but
     *     a multi-architecture one
     */
    Acceptance(PayloadSource payloads, Events events, String architecture) {
        this.payloads = payloads;
        this.events = events;
        this.architecture = architecture;
    }

    /**
     * Accepts {@code target}, its payload loaded with the cluster's load-time {@code rules}; {@code
     * current} is the payload the worker runs, the trust anchor when it is the release the cluster
     * last completed (else that release's payload is loaded, from the payload cache when there).
     */
    Step<Accepted> accept(
            DesiredUpdates.Target target,
            ClusterVersion cv,
            Capabilities enabled,
            LoadRules rules,
            Optional<Payload> current) {
        return accept(target, cv, enabled, rules, current, new AtomicReference<>());
    }

    /**
     * Where an attempt stands, for the message of a deadline reached: the ReleaseAccepted reason
     * its step fails with, and what it is doing ("verifying its signature ...").
     */
    record Stage(String reason, String doing) {}

    /**
     * As {@link #accept(DesiredUpdates.Target, ClusterVersion, Capabilities, LoadRules, Optional)},
     * over by {@code limit}: the chain runs on a thread of its own, and when it has not finished in
     * time the target is refused at the step it was at, the message naming the step and the limit,
     * and the thread is interrupted (every read from the network ends on an interrupt, and at its
     * own bound anyway). A failure the chain did not expect refuses the target in the same way
     * rather than leave it pending.
     */
    Step<Accepted> acceptWithin(
            Duration limit,
            DesiredUpdates.Target target,
            ClusterVersion cv,
            Capabilities enabled,
            LoadRules rules,
            Optional<Payload> current)
            throws InterruptedException {
        AtomicReference<Stage> stage =
                new AtomicReference<>(new Stage("RetrievePayload", "starting"));
        CompletableFuture<Step<Accepted>> outcome = new CompletableFuture<>();
        AtomicBoolean abandoned = new AtomicBoolean();
        Thread attempt =
                new Thread(
                        () -> {
                            ABANDONED.set(abandoned);
                            try {
                                outcome.complete(
                                        accept(target, cv, enabled, rules, current, stage));
                            } catch (Throwable e) {
                                outcome.completeExceptionally(e);
                            }
                        },
                        "cluster-version-acceptance");
        attempt.setDaemon(true);
        attempt.start();
        String release =
                "version="
                        + GoQuote.quote(target.version())
                        + " image="
                        + GoQuote.quote(target.image());
        try {
            return outcome.get(limit.toNanos(), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            abandoned.set(true);
            attempt.interrupt();
            Stage at = stage.get();
            LOG.warn(
                    "clusterversion/version: accepting {} did not finish within {}: still {}",
                    release,
                    GoDuration.format(limit.toNanos()),
                    at.doing());
            return refuse(
                    at.reason(),
                    "Accepting the release "
                            + release
                            + " did not finish within "
                            + GoDuration.format(limit.toNanos())
                            + ", the limit for accepting a release: still "
                            + at.doing());
        } catch (InterruptedException e) {
            abandoned.set(true);
            attempt.interrupt();
            throw e;
        } catch (ExecutionException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            Stage at = stage.get();
            LOG.warn("clusterversion/version: accepting {} failed unexpectedly", release, cause);
            return refuse(
                    at.reason(),
                    "Accepting the release "
                            + release
                            + " failed while "
                            + at.doing()
                            + ": "
                            + cause);
        }
    }

    private Step<Accepted> accept(
            DesiredUpdates.Target target,
            ClusterVersion cv,
            Capabilities enabled,
            LoadRules rules,
            Optional<Payload> current,
            AtomicReference<Stage> stage) {
        ClusterVersionStatus status =
                cv.getStatus() == null ? new ClusterVersionStatus() : cv.getStatus();
        List<UpdateHistory> history = status.getHistory() == null ? List.of() : status.getHistory();
        normal(
                "RetrievePayload",
                "Retrieving and verifying payload version=\""
                        + target.version()
                        + "\" image=\""
                        + target.image()
                        + "\"");

        stage.set(new Stage("RetrievePayload", "resolving " + target.image() + " to a digest"));
        Step<String> pinned = resolve(target);
        if (!(pinned instanceof Step.Passed<String> digest)) return refused(pinned);
        boolean install = history.isEmpty();
        boolean resume = !install && target.image().equals(history.get(0).getImage());
        Checked checked =
                new Checked(resume && Boolean.TRUE.equals(history.get(0).getVerified()), List.of());
        Optional<Payload> running = Optional.empty();
        if (!install && !resume) {
            // as upstream: the signature is checked before anything of the release is pulled
            stage.set(
                    new Stage(
                            "RetrievePayload",
                            "loading the payload of the running release, to verify with"));
            running = runningPayload(history, current, rules);
            stage.set(
                    new Stage(
                            "RetrievePayload",
                            "verifying its signature (signature stores "
                                    + storesNamed(cv, running)
                                    + ")"));
            Step<Checked> verified = verifySignature(target, digest.value(), running, cv);
            if (!(verified instanceof Step.Passed<Checked> v)) return refused(verified);
            checked = v.value();
        }
        stage.set(new Stage("RetrievePayload", "retrieving its payload"));
        Step<Payload> retrieved =
                retrieve(target, digest.value(), DesiredUpdates.knownVersion(target, cv), rules);
        if (!(retrieved instanceof Step.Passed<Payload> loaded)) return refused(retrieved);
        Payload payload = loaded.value();
        Step<Payload> versioned = verifyVersion(target, payload);
        if (!(versioned instanceof Step.Passed<Payload>)) return refused(versioned);
        Step<Payload> alone = oneOperator(target, payload);
        if (!(alone instanceof Step.Passed<Payload>)) return refused(alone);

        Set<String> implicit = Set.of();
        if (!install && !resume) {
            implicit =
                    running.map(
                                    r ->
                                            ImplicitCapabilities.of(
                                                    r.manifests(), payload.manifests(), enabled))
                            .orElse(Set.of());
            stage.set(new Stage("PreconditionChecks", "checking the preconditions"));
            Step<Checked> preconditions = checkPreconditions(target, payload, status, cv, checked);
            if (!(preconditions instanceof Step.Passed<Checked> p)) return refused(preconditions);
            checked = p.value();
        }
        String arch = payload.metadata().clusterArchitecture(architecture);
        // as upstream's event, the same words as ReleaseAccepted
        normal(
                "PayloadLoaded",
                "Payload loaded version=\""
                        + payload.version()
                        + "\" image=\""
                        + target.image()
                        + "\" architecture=\""
                        + arch
                        + "\"");
        return new Step.Passed<>(
                new Accepted(
                        payload,
                        new SyncStatus.Acceptance.Accepted(
                                payload.version(),
                                target.image(),
                                payload.metadata().url(),
                                List.copyOf(payload.metadata().channels()),
                                checked.verified(),
                                String.join("\n", checked.risks()),
                                arch),
                        implicit));
    }

    /** A tag is resolved to the digest it names now; the rest of the chain uses that digest. */
    private Step<String> resolve(DesiredUpdates.Target target) {
        try {
            return new Step.Passed<>(payloads.pin(target.image()));
        } catch (ReleaseException e) {
            return refuse(
                    "RetrievePayload",
                    "Retrieving payload failed version=\""
                            + target.version()
                            + "\" image=\""
                            + target.image()
                            + "\" failure="
                            + e);
        }
    }

    /**
     * @param known the version the cluster knows the target by before its payload says (names the
     *     retrieval Job)
     */
    private Step<Payload> retrieve(
            DesiredUpdates.Target target, String digest, String known, LoadRules rules) {
        try {
            return new Step.Passed<>(payloads.load(digest, known, rules));
        } catch (ReleaseException e) {
            String step = LOAD_FAILURES.contains(e.reason()) ? "LoadPayload" : "RetrievePayload";
            return refuse(
                    step,
                    (step.equals("LoadPayload")
                                    ? "Loading payload failed"
                                    : "Retrieving payload failed")
                            + " version=\""
                            + target.version()
                            + "\" image=\""
                            + target.image()
                            + "\" failure="
                            + e);
        }
    }

    private Step<Payload> verifyVersion(DesiredUpdates.Target target, Payload payload) {
        if (target.version().isEmpty() || target.version().equals(payload.version()))
            return new Step.Passed<>(payload);
        return refuse(
                "VerifyPayloadVersion",
                "release image version "
                        + payload.version()
                        + " does not match the expected upstream version "
                        + target.version());
    }

    /**
     * A release whose manifests would run a cluster-version operator besides its own Deployment
     * ({@link ControllerDeployment#others}) is refused before anything is applied: the second
     * operator would write ClusterVersion beside this one.
     */
    private Step<Payload> oneOperator(DesiredUpdates.Target target, Payload payload) {
        List<String> others =
                ControllerDeployment.others(payload.manifests(), payload.releaseImage());
        if (others.isEmpty()) return new Step.Passed<>(payload);
        return refuse(
                "LoadPayload",
                "Loading payload failed version=\""
                        + payload.version()
                        + "\" image=\""
                        + target.image()
                        + "\" failure="
                        + String.join("; ", others));
    }

    /**
     * Verified with the running release's verification ConfigMap; unverifiable only when forced, as
     * an accepted risk.
     */
    private Step<Checked> verifySignature(
            DesiredUpdates.Target target,
            String digest,
            Optional<Payload> running,
            ClusterVersion cv) {
        try {
            if (running.isEmpty())
                throw new ReleaseException(
                        Reason.VERIFIER_NOT_CONFIGURED,
                        "the running release's payload is not available to verify with");
            payloads.verify(digest, running.get(), signatureStores(cv));
            return new Step.Passed<>(new Checked(true, List.of()));
        } catch (ReleaseException e) {
            if (!target.force()) {
                return refuse(
                        "RetrievePayload",
                        "Retrieving payload failed version=\""
                                + target.version()
                                + "\" image=\""
                                + target.image()
                                + "\" failure=The update cannot be verified: "
                                + e);
            }
            // as upstream: the forced release is recorded with this as an accepted risk
            String risk =
                    "Target release version="
                            + GoQuote.quote(target.version())
                            + " image="
                            + GoQuote.quote(target.image())
                            + " cannot be verified, but continuing anyway because the update was"
                            + " forced: "
                            + e;
            warning("RetrievePayload", risk);
            return new Step.Passed<>(new Checked(false, List.of(risk)));
        }
    }

    private Step<Checked> checkPreconditions(
            DesiredUpdates.Target target,
            Payload payload,
            ClusterVersionStatus status,
            ClusterVersion cv,
            Checked so) {
        String current = status.getDesired() == null ? null : status.getDesired().getVersion();
        if (current == null || !SemVer.isValid(current)) return new Step.Passed<>(so);
        List<Precondition> results =
                Preconditions.check(
                        new Preconditions.Input(
                                SemVer.parse(current),
                                status.getDesired().getImage(),
                                SemVer.parse(payload.version()),
                                status.getHistory(),
                                Conditions.CLUSTER.find(status.getConditions(), "Upgradeable"),
                                status.getAvailableUpdates() == null
                                        ? List.of()
                                        : status.getAvailableUpdates(),
                                status.getConditionalUpdates() == null
                                        ? List.of()
                                        : status.getConditionalUpdates(),
                                cv.getSpec().getChannel(),
                                Conditions.CLUSTER.find(status.getConditions(), "RetrievedUpdates"),
                                cv.getSpec().getOverrides() != null
                                        && cv.getSpec().getOverrides().stream()
                                                .anyMatch(
                                                        o -> Boolean.TRUE.equals(o.getUnmanaged())),
                                Conditions.CLUSTER.find(status.getConditions(), "Progressing")));
        String loaded =
                " for payload loaded version="
                        + GoQuote.quote(payload.version())
                        + " image="
                        + GoQuote.quote(target.image());
        Optional<PreconditionSummary> summary = PreconditionSummary.of(results, target.force());
        if (summary.isPresent() && summary.get().blocks()) {
            return refuse(
                    "PreconditionChecks",
                    "PreconditionBlock",
                    "Preconditions failed" + loaded + ": " + summary.get().message());
        }
        List<String> risks = new ArrayList<>(so.risks());
        if (summary.isPresent()) {
            warning(
                    "PreconditionWarn",
                    "precondition warning" + loaded + ": " + summary.get().message());
            risks.add(summary.get().message());
        }
        normal("PreconditionsPassed", "preconditions passed" + loaded);
        return new Step.Passed<>(new Checked(so.verified(), risks));
    }

    /**
     * The payload of the release the cluster last completed: the trust anchor for verifying the
     * next one.
     */
    private Optional<Payload> runningPayload(
            List<UpdateHistory> history, Optional<Payload> current, LoadRules rules) {
        Optional<UpdateHistory> done = History.lastCompleted(history);
        if (done.isEmpty()) return Optional.empty();
        if (current.isPresent() && done.get().getImage().equals(current.get().releaseImage()))
            return current;
        try {
            return Optional.of(
                    payloads.load(
                            payloads.pin(done.get().getImage()),
                            done.get().getVersion() == null ? "" : done.get().getVersion(),
                            rules));
        } catch (ReleaseException e) {
            LOG.warn(
                    "clusterversion/version: the running release {} cannot be loaded: {}",
                    done.get().getImage(),
                    e.toString());
            return Optional.empty();
        }
    }

    /**
     * The stores a verification reads after the cluster's ConfigMaps, as messages name them: those
     * {@code spec.signatureStores} configures, else those of the running release's verification
     * ConfigMap.
     */
    private static String storesNamed(ClusterVersion cv, Optional<Payload> running) {
        List<ConfiguredStore> configured = signatureStores(cv);
        if (!configured.isEmpty())
            return configured.stream().map(ConfiguredStore::url).toList().toString();
        if (running.isEmpty()) return "unknown: the running release's payload is not loaded";
        List<Manifest> all = new ArrayList<>(running.get().manifests());
        running.get().excluded().forEach(e -> all.add(e.manifest()));
        try {
            return VerifierConfig.fromPayload(all).stores().toString();
        } catch (ReleaseException e) {
            return "none: " + e.getMessage();
        }
    }

    /**
     * The stores {@code spec.signatureStores} configures, as written: whether each can be read is
     * the verification's to say, naming the entry.
     */
    static List<ConfiguredStore> signatureStores(ClusterVersion cv) {
        List<ConfiguredStore> out = new ArrayList<>();
        if (cv.getSpec() != null && cv.getSpec().getSignatureStores() != null)
            for (SignatureStore s : cv.getSpec().getSignatureStores())
                out.add(
                        new ConfiguredStore(
                                s.getUrl(), s.getCa() == null ? "" : s.getCa().getName()));
        return out;
    }

    /**
     * Set on an attempt's own thread: true once the attempt was given up at its deadline, after
     * which what it finds is not reported (an Event saying it was interrupted would mislead).
     */
    private static final ThreadLocal<AtomicBoolean> ABANDONED =
            ThreadLocal.withInitial(AtomicBoolean::new);

    private void normal(String reason, String message) {
        if (!ABANDONED.get().get()) events.normal(reason, message);
    }

    private void warning(String reason, String message) {
        if (!ABANDONED.get().get()) events.warning(reason, message);
    }

    private <T> Step<T> refuse(String reason, String message) {
        return refuse(reason, reason + "Failed", message);
    }

    /** Refused at step {@code reason}, said in an Event of reason {@code event}. */
    private <T> Step<T> refuse(String reason, String event, String message) {
        warning(event, message);
        return new Step.Refused<>(new SyncStatus.Acceptance.Refused(reason, message));
    }

    @SuppressWarnings("unchecked")
    private static <T> Step<T> refused(Step<?> step) {
        return (Step<T>) step;
    }
}
