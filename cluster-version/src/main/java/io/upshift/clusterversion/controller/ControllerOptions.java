package io.upshift.clusterversion.controller;

import io.upshift.clusterversion.model.Failing;
import io.upshift.graph.updates.UpdatesRequest;
import io.upshift.releases.image.Architectures;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.signatures.SignatureStores;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;

/**
 * How the cluster-version controller runs.
 *
 * @param ownRelease the release this controller runs, applied when none was yet (install); may be
 *     null
 * @param payloadCache where pulled payloads are unpacked, one directory per digest
 * @param updatingWorkers workers while updating (the reference's 16)
 * @param reconcilingWorkers workers while reconciling (2)
 * @param taskWait how long one pass waits for a task to be done before reporting it and moving on
 * @param reconcileInterval the minimum reconcile interval: each process draws its own, between this
 *     and twice it, for the pause between Reconciling passes (upstream: 2-4 minutes); failed passes
 *     are retried after a sixteenth of it, doubling
 * @param progressInterval at most one progress status write per interval
 * @param thresholds when waiting turns Failing Unknown, and Degraded Failing True
 * @param prometheus where PromQL risk rules are evaluated; null reports them as not evaluable
 * @param profile the cluster profile manifests must opt in to (upstream's {@code CLUSTER_PROFILE})
 * @param excludeIdentifier manifests annotated {@code exclude.release.openshift.io/<id>: "true"}
 *     are left out (upstream's {@code EXCLUDE_MANIFESTS}); null: none
 * @param jobRetrieval how payloads are retrieved through a Job running the release image; null:
 *     pulled in-process
 * @param architecture the controller's own architecture (GOARCH names), upstream's {@code
 *     runtime.GOARCH}: what the update graph is asked for and ReleaseAccepted names, unless the
 *     release is multi-architecture
 * @param defaultUpstream the update graph asked when {@code spec.upstream} is unset (upstream's
 *     built-in {@link UpdatesRequest#DEFAULT_UPSTREAM}); null or empty: none
 *     (RetrievedUpdates=False NoUpstream)
 * @param alwaysEnabledCapabilities capabilities enabled whatever the spec asks, implicitly
 *     (upstream's {@code --always-enable-capabilities})
 * @param acceptanceTimeout how long accepting a target may take (resolving, verifying, retrieving,
 *     preconditions) before it is refused at the step it was at; null: {@link
 *     #acceptanceDeadline()} derives it
 */
public record ControllerOptions(
        String ownRelease,
        Path payloadCache,
        int updatingWorkers,
        int reconcilingWorkers,
        Duration taskWait,
        Duration reconcileInterval,
        Duration progressInterval,
        Failing.Thresholds thresholds,
        URI prometheus,
        String profile,
        String excludeIdentifier,
        JobRetrieval jobRetrieval,
        String architecture,
        String defaultUpstream,
        Set<String> alwaysEnabledCapabilities,
        Duration acceptanceTimeout) {

    /** As upstream's payload retriever bounds a retrieval without a deadline of its own. */
    static final Duration IN_PROCESS_RETRIEVAL = Duration.ofMinutes(4);

    /** Resolving the target's tag, loading the running payload, preconditions: the rest. */
    static final Duration ACCEPTANCE_REST = Duration.ofMinutes(2);

    public ControllerOptions {
        alwaysEnabledCapabilities =
                alwaysEnabledCapabilities == null
                        ? Set.of()
                        : Set.copyOf(alwaysEnabledCapabilities);
    }

    /**
     * Payloads retrieved by a Job on the controller's node ({@link PayloadJobs}) into {@code
     * payloadCache}, a host directory mounted at the same path.
     *
     * @param namespace the controller's namespace, where the Jobs run
     * @param node the controller's node
     */
    public record JobRetrieval(String namespace, String node, Duration timeout) {}

    public static ControllerOptions defaults(String ownRelease, Path payloadCache) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                16,
                2,
                Duration.ofSeconds(30),
                Duration.ofMinutes(2),
                Duration.ofSeconds(1),
                Failing.Thresholds.standard(),
                null,
                InclusionRules.DEFAULT_PROFILE,
                null,
                null,
                Architectures.current(),
                UpdatesRequest.DEFAULT_UPSTREAM,
                Set.of(),
                null);
    }

    public ControllerOptions withTiming(Duration wait, Duration reconcile, Duration progress) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                wait,
                reconcile,
                progress,
                thresholds,
                prometheus,
                profile,
                excludeIdentifier,
                jobRetrieval,
                architecture,
                defaultUpstream,
                alwaysEnabledCapabilities,
                acceptanceTimeout);
    }

    public ControllerOptions withPrometheus(URI uri) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                taskWait,
                reconcileInterval,
                progressInterval,
                thresholds,
                uri,
                profile,
                excludeIdentifier,
                jobRetrieval,
                architecture,
                defaultUpstream,
                alwaysEnabledCapabilities,
                acceptanceTimeout);
    }

    public ControllerOptions withThresholds(Failing.Thresholds t) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                taskWait,
                reconcileInterval,
                progressInterval,
                t,
                prometheus,
                profile,
                excludeIdentifier,
                jobRetrieval,
                architecture,
                defaultUpstream,
                alwaysEnabledCapabilities,
                acceptanceTimeout);
    }

    /** Payloads retrieved through Jobs. */
    public ControllerOptions withJobRetrieval(JobRetrieval jobs) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                taskWait,
                reconcileInterval,
                progressInterval,
                thresholds,
                prometheus,
                profile,
                excludeIdentifier,
                jobs,
                architecture,
                defaultUpstream,
                alwaysEnabledCapabilities,
                acceptanceTimeout);
    }

    /** Another cluster profile and exclude id. */
    public ControllerOptions withInclusion(String clusterProfile, String exclude) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                taskWait,
                reconcileInterval,
                progressInterval,
                thresholds,
                prometheus,
                clusterProfile,
                exclude,
                jobRetrieval,
                architecture,
                defaultUpstream,
                alwaysEnabledCapabilities,
                acceptanceTimeout);
    }

    /** A controller on another architecture (GOARCH names). */
    public ControllerOptions withArchitecture(String arch) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                taskWait,
                reconcileInterval,
                progressInterval,
                thresholds,
                prometheus,
                profile,
                excludeIdentifier,
                jobRetrieval,
                arch,
                defaultUpstream,
                alwaysEnabledCapabilities,
                acceptanceTimeout);
    }

    /** Another update graph for clusters without {@code spec.upstream}; null or empty: none. */
    public ControllerOptions withDefaultUpstream(String upstream) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                taskWait,
                reconcileInterval,
                progressInterval,
                thresholds,
                prometheus,
                profile,
                excludeIdentifier,
                jobRetrieval,
                architecture,
                upstream,
                alwaysEnabledCapabilities,
                acceptanceTimeout);
    }

    /** Capabilities enabled whatever the spec asks (upstream's --always-enable-capabilities). */
    public ControllerOptions withAlwaysEnabledCapabilities(Set<String> capabilities) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                taskWait,
                reconcileInterval,
                progressInterval,
                thresholds,
                prometheus,
                profile,
                excludeIdentifier,
                jobRetrieval,
                architecture,
                defaultUpstream,
                capabilities,
                acceptanceTimeout);
    }

    /**
     * How long accepting a target may take: as set, else the verification's limit ({@link
     * SignatureStores.Limits#DEFAULT}: 2 minutes) and the retrieval's (the payload Job's timeout,
     * or upstream's 4 minutes for a pull in this process), and 2 minutes for the rest: 6 minutes
     * with the default Job timeout. Every step bounds its own reads within this; reaching it
     * refuses the target naming the step.
     */
    public Duration acceptanceDeadline() {
        if (acceptanceTimeout != null) return acceptanceTimeout;
        Duration retrieval = jobRetrieval == null ? IN_PROCESS_RETRIEVAL : jobRetrieval.timeout();
        return SignatureStores.Limits.DEFAULT
                .perVerification()
                .plus(retrieval)
                .plus(ACCEPTANCE_REST);
    }

    /** Accepting a target over by {@code timeout} (tests: short). */
    public ControllerOptions withAcceptanceTimeout(Duration timeout) {
        return new ControllerOptions(
                ownRelease,
                payloadCache,
                updatingWorkers,
                reconcilingWorkers,
                taskWait,
                reconcileInterval,
                progressInterval,
                thresholds,
                prometheus,
                profile,
                excludeIdentifier,
                jobRetrieval,
                architecture,
                defaultUpstream,
                alwaysEnabledCapabilities,
                timeout);
    }
}
