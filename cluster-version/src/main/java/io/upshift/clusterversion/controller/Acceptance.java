package io.upshift.clusterversion.controller;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
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
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.runtime.kube.Events;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
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
        ClusterVersionStatus status =
                cv.getStatus() == null ? new ClusterVersionStatus() : cv.getStatus();
        List<UpdateHistory> history = status.getHistory() == null ? List.of() : status.getHistory();
        events.normal(
                "RetrievePayload",
                "Retrieving and verifying payload version=\""
                        + target.version()
                        + "\" image=\""
                        + target.image()
                        + "\"");

        Step<String> pinned = resolve(target);
        if (!(pinned instanceof Step.Passed<String> digest)) return refused(pinned);
        boolean install = history.isEmpty();
        boolean resume = !install && target.image().equals(history.get(0).getImage());
        Checked checked =
                new Checked(resume && Boolean.TRUE.equals(history.get(0).getVerified()), List.of());
        Optional<Payload> running = Optional.empty();
        if (!install && !resume) {
            // as upstream: the signature is checked before anything of the release is pulled
            running = runningPayload(history, current, rules);
            Step<Checked> verified = verifySignature(target, digest.value(), running, cv);
            if (!(verified instanceof Step.Passed<Checked> v)) return refused(verified);
            checked = v.value();
        }
        Step<Payload> retrieved =
                retrieve(target, digest.value(), DesiredUpdates.knownVersion(target, cv), rules);
        if (!(retrieved instanceof Step.Passed<Payload> loaded)) return refused(retrieved);
        Payload payload = loaded.value();
        Step<Payload> versioned = verifyVersion(target, payload);
        if (!(versioned instanceof Step.Passed<Payload>)) return refused(versioned);

        Set<String> implicit = Set.of();
        if (!install && !resume) {
            implicit =
                    running.map(
                                    r ->
                                            ImplicitCapabilities.of(
                                                    r.manifests(), payload.manifests(), enabled))
                            .orElse(Set.of());
            Step<Checked> preconditions = checkPreconditions(target, payload, status, cv, checked);
            if (!(preconditions instanceof Step.Passed<Checked> p)) return refused(preconditions);
            checked = p.value();
        }
        String arch = payload.metadata().clusterArchitecture(architecture);
        // as upstream's event, the same words as ReleaseAccepted
        events.normal(
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
            events.warning("RetrievePayload", risk);
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
            events.warning(
                    "PreconditionWarn",
                    "precondition warning" + loaded + ": " + summary.get().message());
            risks.add(summary.get().message());
        }
        events.normal("PreconditionsPassed", "preconditions passed" + loaded);
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

    private static List<URI> signatureStores(ClusterVersion cv) {
        List<URI> out = new ArrayList<>();
        if (cv.getSpec().getSignatureStores() != null)
            cv.getSpec().getSignatureStores().forEach(s -> out.add(URI.create(s.getUrl())));
        return out;
    }

    private <T> Step<T> refuse(String reason, String message) {
        return refuse(reason, reason + "Failed", message);
    }

    /** Refused at step {@code reason}, said in an Event of reason {@code event}. */
    private <T> Step<T> refuse(String reason, String event, String message) {
        events.warning(event, message);
        return new Step.Refused<>(new SyncStatus.Acceptance.Refused(reason, message));
    }

    @SuppressWarnings("unchecked")
    private static <T> Step<T> refused(Step<?> step) {
        return (Step<T>) step;
    }
}
