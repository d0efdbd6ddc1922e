package io.upshift.clusterversion.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.upshift.api.json.Mappers;
import io.upshift.base.conditions.Conditions;
import io.upshift.clusterversion.model.Handover;
import io.upshift.clusterversion.model.OperatorLevel;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.taskgraph.Mode;
import java.util.Objects;

/**
 * Whether an applied object lets its task go on, as upstream's resource builder judges it
 * (lib/resourcebuilder): while installing, nothing is checked; otherwise a Deployment fails only
 * when it reports a replica failure, is neither available nor progressing, or is past its progress
 * deadline (a rollout in progress, or one pod of many not ready, is its ClusterOperator's to
 * report, not a reason to stall the run-level); a DaemonSet or a Deployment is waited for only
 * while it is being deleted; a Job fails when it failed; a CRD must be Established. Other kinds are
 * done once applied.
 */
final class Readiness {

    /** Not ready yet (or failed), with the reference's reason and effect. */
    record NotReady(String reason, String message, OperatorLevel.Effect effect) {}

    private static final ObjectMapper JSON = Mappers.JSON;

    private Readiness() {}

    /**
     * The object to judge: the cached one, unless the cache does not hold {@code written} (this
     * task's write) yet — another object, or an older generation; then the write's own response,
     * whose status has not caught up with the new spec. Else a Deployment just fixed would be
     * judged from the failure its previous spec reported.
     */
    static GenericKubernetesResource observed(
            GenericKubernetesResource cached, GenericKubernetesResource written) {
        if (written == null) return cached;
        boolean stale =
                cached == null
                        || !Objects.equals(
                                cached.getMetadata().getUid(), written.getMetadata().getUid())
                        || generation(cached) < generation(written);
        return stale ? written : cached;
    }

    private static long generation(GenericKubernetesResource o) {
        return o.getMetadata().getGeneration() == null ? 0 : o.getMetadata().getGeneration();
    }

    static NotReady check(Manifest m, GenericKubernetesResource live, Mode mode) {
        return check(m, live, mode, null);
    }

    /**
     * As {@link #check(Manifest, GenericKubernetesResource, Mode)}, for a payload of {@code
     * releaseImage}: the Deployment that runs the release image is the controller's own, and it is
     * done only once rolled out, whatever the mode. Its task is where one release's controller
     * hands over to the next (the old pod is stopped before the new one starts, strategy Recreate),
     * so the controller that records an install or an update complete is the release's own, not one
     * about to be replaced.
     */
    static NotReady check(
            Manifest m, GenericKubernetesResource live, Mode mode, String releaseImage) {
        if (live == null)
            return new NotReady(
                    "ResourceMissing", describe(m) + " does not exist", OperatorLevel.Effect.NONE);
        JsonNode o = JSON.valueToTree(live);
        if (Handover.runsRelease(m, releaseImage)) {
            NotReady rollout = controllerRollout(m, o);
            if (rollout != null) return rollout;
        }
        if (mode == Mode.INITIALIZING) return null;
        JsonNode status = o.path("status");
        boolean deleting = !o.path("metadata").path("deletionTimestamp").asText("").isEmpty();
        switch (m.group() + "/" + m.kind()) {
            case "apps/Deployment" -> {
                if (deleting) return beingDeleted(m);
                // a status about an older generation says nothing against the spec just written
                if (status.path("observedGeneration").asLong(0)
                        < o.path("metadata").path("generation").asLong(0)) return null;
                return deploymentFailure(m, status.path("conditions"));
            }
            case "apps/DaemonSet" -> {
                // the DaemonSet controller sets no conditions: unavailable pods are the operator's
                // to report
                return deleting ? beingDeleted(m) : null;
            }
            case "batch/Job" -> {
                return jobFailure(m, status);
            }
            case "apiextensions.k8s.io/CustomResourceDefinition" -> {
                return Conditions.JSON.isTrue(status.path("conditions"), "Established")
                        ? null
                        : new NotReady(
                                "CustomResourceDefinitionNotEstablished",
                                describe(m) + " is not yet established",
                                OperatorLevel.Effect.NONE);
            }
            default -> {
                return null;
            }
        }
    }

    /** The controller's own Deployment, not yet rolled out to its spec: waited for. */
    private static NotReady controllerRollout(Manifest m, JsonNode o) {
        JsonNode status = o.path("status");
        long replicas = o.path("spec").path("replicas").asLong(1);
        boolean rolledOut =
                status.path("observedGeneration").asLong(0)
                                >= o.path("metadata").path("generation").asLong(0)
                        && status.path("updatedReplicas").asLong(0) >= replicas
                        && status.path("availableReplicas").asLong(0) >= replicas;
        return rolledOut
                ? null
                : new NotReady(
                        "ControllerRollingOut",
                        describe(m) + " is rolling out: this release's controller takes over",
                        OperatorLevel.Effect.NONE);
    }

    private static NotReady deploymentFailure(Manifest m, JsonNode conditions) {
        if (Conditions.JSON.isTrue(conditions, "ReplicaFailure")) {
            return new NotReady(
                    "WorkloadNotProgressing",
                    describe(m)
                            + " has a replica failure "
                            + reasonAndMessage(conditions, "ReplicaFailure"),
                    OperatorLevel.Effect.FAIL);
        }
        if (Conditions.JSON.isFalse(conditions, "Available")
                && Conditions.JSON.isFalse(conditions, "Progressing")) {
            return new NotReady(
                    "WorkloadNotAvailable",
                    describe(m)
                            + " is not available "
                            + reasonAndMessage(conditions, "Available")
                            + " or progressing "
                            + reasonAndMessage(conditions, "Progressing"),
                    OperatorLevel.Effect.FAIL);
        }
        if (Conditions.JSON.isFalse(conditions, "Progressing")
                && "ProgressDeadlineExceeded"
                        .equals(Conditions.JSON.reason(conditions, "Progressing"))) {
            return new NotReady(
                    "WorkloadNotProgressing",
                    describe(m)
                            + " is not progressing: "
                            + reasonAndMessage(conditions, "Progressing"),
                    OperatorLevel.Effect.FAIL);
        }
        return null;
    }

    /**
     * Upstream's Job check: done once a pod succeeded, and not waited for while it runs. A Job
     * marked Failed fails the task; one with failed pods and none running is told, and tried again
     * (it may still retry its pods).
     */
    private static NotReady jobFailure(Manifest m, JsonNode status) {
        if (status.path("succeeded").asLong(0) > 0) return null;
        if (Conditions.JSON.isTrue(status.path("conditions"), "Failed")) {
            return new NotReady(
                    "JobFailed",
                    describe(m)
                            + " failed: "
                            + reasonAndMessage(status.path("conditions"), "Failed"),
                    OperatorLevel.Effect.FAIL);
        }
        if (status.path("active").asLong(0) == 0 && status.path("failed").asLong(0) > 0) {
            return new NotReady(
                    "JobNotComplete",
                    describe(m)
                            + " has "
                            + status.path("failed").asLong()
                            + " failed pods and none running",
                    OperatorLevel.Effect.NONE);
        }
        return null;
    }

    private static NotReady beingDeleted(Manifest m) {
        return new NotReady(
                "ResourceBeingDeleted",
                describe(m) + " is being deleted",
                OperatorLevel.Effect.NONE);
    }

    static String describe(Manifest m) {
        return m.kind()
                + " \""
                + (m.namespace().isEmpty() ? "" : m.namespace() + "/")
                + m.name()
                + "\"";
    }

    private static String reasonAndMessage(JsonNode conditions, String type) {
        JsonNode c = Conditions.JSON.find(conditions, type);
        return c == null
                ? ""
                : c.path("reason").asText("") + " (" + c.path("message").asText("") + ")";
    }
}
