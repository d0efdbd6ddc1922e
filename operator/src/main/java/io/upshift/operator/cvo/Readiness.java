package io.upshift.operator.cvo;

import io.upshift.api.json.Mappers;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.upshift.core.conditions.Conditions;
import io.upshift.core.cvo.OperatorLevel;
import io.upshift.core.payload.Manifest;

/**
 * Whether an applied object is done: Deployments Available with every replica updated (and not past their progress
 * deadline), DaemonSets fully rolled out, Jobs succeeded, CRDs Established. Other kinds are done once applied.
 */
final class Readiness {

    /** Not ready yet (or failed), with the reference's reason and effect. */
    record NotReady(String reason, String message, OperatorLevel.Effect effect) {
    }

    private static final ObjectMapper JSON = Mappers.JSON;

    private Readiness() {
    }

    /**
     * The object to judge: the cached one, unless the cache does not hold {@code written} (this task's write) yet —
     * another object, or an older generation; then the write's own response, whose status has not caught up with the
     * new spec. Else a Deployment just changed would look rolled out from its previous status.
     */
    static GenericKubernetesResource observed(GenericKubernetesResource cached, GenericKubernetesResource written) {
        if (written == null) return cached;
        boolean stale = cached == null || !java.util.Objects.equals(cached.getMetadata().getUid(), written.getMetadata().getUid())
                || generation(cached) < generation(written);
        return stale ? written : cached;
    }

    private static long generation(GenericKubernetesResource o) {
        return o.getMetadata().getGeneration() == null ? 0 : o.getMetadata().getGeneration();
    }

    static NotReady check(Manifest m, GenericKubernetesResource live) {
        if (live == null) return new NotReady("ResourceMissing", describe(m) + " does not exist", OperatorLevel.Effect.NONE);
        JsonNode o = JSON.valueToTree(live);
        JsonNode status = o.path("status");
        long generation = o.path("metadata").path("generation").asLong(0);
        switch (m.group() + "/" + m.kind()) {
            case "apps/Deployment": {
                JsonNode conditions = status.path("conditions");
                if (Conditions.JSON.isFalse(conditions, "Progressing") && "ProgressDeadlineExceeded".equals(Conditions.JSON.reason(conditions, "Progressing"))) {
                    return new NotReady("WorkloadNotProgressing", describe(m) + " is not progressing: " + message(status, "Progressing"), OperatorLevel.Effect.FAIL);
                }
                long replicas = o.path("spec").path("replicas").asLong(1);
                boolean done = status.path("observedGeneration").asLong(-1) >= generation
                        && status.path("updatedReplicas").asLong(0) >= replicas && status.path("availableReplicas").asLong(0) >= replicas
                        && Conditions.JSON.isTrue(conditions, "Available");
                return done ? null : new NotReady("WorkloadNotAvailable", describe(m) + " is not yet available with all replicas updated", OperatorLevel.Effect.NONE);
            }
            case "apps/DaemonSet": {
                long desired = status.path("desiredNumberScheduled").asLong(0);
                boolean done = status.path("observedGeneration").asLong(-1) >= generation
                        && status.path("updatedNumberScheduled").asLong(0) >= desired && status.path("numberUnavailable").asLong(0) == 0;
                return done ? null : new NotReady("WorkloadNotAvailable", describe(m) + " is not yet rolled out", OperatorLevel.Effect.NONE);
            }
            case "batch/Job": {
                if (status.path("succeeded").asLong(0) >= 1) return null;
                if (Conditions.JSON.isTrue(status.path("conditions"), "Failed")) {
                    return new NotReady("JobFailed", describe(m) + " failed: " + message(status, "Failed"), OperatorLevel.Effect.FAIL);
                }
                return new NotReady("JobNotComplete", describe(m) + " has not completed", OperatorLevel.Effect.NONE);
            }
            case "apiextensions.k8s.io/CustomResourceDefinition":
                return Conditions.JSON.isTrue(status.path("conditions"), "Established") ? null
                        : new NotReady("CustomResourceDefinitionNotEstablished", describe(m) + " is not yet established", OperatorLevel.Effect.NONE);
            default:
                return null;
        }
    }

    static String describe(Manifest m) {
        return m.kind() + " \"" + (m.namespace().isEmpty() ? "" : m.namespace() + "/") + m.name() + "\"";
    }


    private static String message(JsonNode status, String type) {
        JsonNode c = Conditions.JSON.find(status.path("conditions"), type);
        return c == null ? "" : c.path("message").asText("");
    }
}
