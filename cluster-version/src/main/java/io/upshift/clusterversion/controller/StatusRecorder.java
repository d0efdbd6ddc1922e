package io.upshift.clusterversion.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.upshift.api.json.Mappers;
import io.upshift.api.schema.CrdSchema;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.clusterversion.merge.Semantic;
import io.upshift.clusterversion.model.History;
import io.upshift.clusterversion.model.KeptCapabilities;
import io.upshift.runtime.kube.Events;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The one writer of ClusterVersion status. It writes only when the status differs from what the
 * cluster holds, as an update of {@code /status} conditional on the resourceVersion it was computed
 * from (a 409 goes back to the controller, which recomputes from its cache), at most once per
 * {@code progressInterval} when only the progress message moved. What it writes fits the
 * ClusterVersion CRD installed in the cluster: capability names that CRD does not know (after a
 * rollback to an older release) are left out and named in {@code CapabilitiesReported=False};
 * anything else it rejects is left out and named in {@code StatusReported=False} and a Warning
 * event, and the rest of the status is still written. A status that records Completed is shown to
 * the {@link CompletionMirror} first.
 */
final class StatusRecorder {
    private static final Logger LOG = LoggerFactory.getLogger(StatusRecorder.class);

    private final KubernetesClient client;
    private final Clock clock;
    private final Duration progressInterval;
    private final Events events;
    private String crdVersion;
    private CrdSchema schema;
    private Set<String> capabilityEnum;
    private Instant lastWrite = Instant.EPOCH;

    /**
     * The resourceVersion the last write was computed from: while the cache still holds it, it has
     * not seen that write.
     */
    private String writtenFrom = "";

    private String lastRejection = "";

    /**
     * The last status validated against the CRD, and the status it gave: validating costs more than
     * the rest of a sync.
     */
    private JsonNode validatedFrom;

    private JsonNode validated;
    final AtomicLong writes = new AtomicLong();

    /** Told of a status that records Completed before it is written. */
    volatile CompletionMirror mirror = CompletionMirror.NONE;

    StatusRecorder(KubernetesClient client, Clock clock, Duration progressInterval, Events events) {
        this.client = client;
        this.clock = clock;
        this.progressInterval = progressInterval;
        this.events = events;
    }

    /**
     * Writes {@code status} onto {@code cv} when it differs; returns how long to wait before a
     * write the throttle held back may go (zero when nothing is held back).
     */
    Duration record(ClusterVersion cv, ClusterVersionStatus status, GenericKubernetesResource crd) {
        if (writtenFrom.equals(cv.getMetadata().getResourceVersion()))
            return Duration.ZERO; // its watch event brings us back
        useSchemaOf(crd);
        Instant now = clock.instant();
        JsonNode current = withExplicitNulls(Mappers.JSON.valueToTree(cv.getStatus()));
        JsonNode candidate =
                withExplicitNulls(Mappers.JSON.valueToTree(capabilitiesFitted(status, now)));
        // while only the progress count moves, the write waits (before anything costly: this is
        // most syncs of an update)
        Duration wait = Duration.between(now, lastWrite.plus(progressInterval));
        if (!wait.isNegative()
                && !wait.isZero()
                && without(current, "Progressing", "StatusReported")
                        .equals(without(candidate, "Progressing", "StatusReported"))) return wait;
        if (!candidate.equals(validatedFrom)) {
            validated = fit(candidate, now);
            validatedFrom = candidate;
        }
        if (validated.equals(current)) return Duration.ZERO;
        ObjectNode object = Mappers.JSON.valueToTree(cv);
        object.set("status", validated);
        Runnable withdraw =
                History.completes(
                                cv.getStatus() == null ? null : cv.getStatus().getHistory(),
                                status.getHistory())
                        ? mirror.before(Mappers.JSON.convertValue(object, ClusterVersion.class))
                        : () -> {};
        GenericKubernetesResource written;
        try {
            written =
                    client.genericKubernetesResources(
                                    LiveObjects.context(
                                            "config.openshift.io/v1", "ClusterVersion", false))
                            .resource(
                                    Mappers.JSON.convertValue(
                                            object, GenericKubernetesResource.class))
                            .updateStatus();
        } catch (RuntimeException e) {
            withdraw.run();
            throw e;
        }
        writes.incrementAndGet();
        lastWrite = now;
        writtenFrom = cv.getMetadata().getResourceVersion();
        LOG.debug(
                "clusterversion/{}: status written (resourceVersion {}), {} changed",
                cv.getMetadata().getName(),
                written.getMetadata().getResourceVersion(),
                Semantic.difference(current, validated, ".status"));
        return Duration.ZERO;
    }

    /**
     * The capability names the installed ClusterVersion CRD {@code crd} accepts in status; null
     * when it accepts any.
     */
    Set<String> capabilityNames(GenericKubernetesResource crd) {
        useSchemaOf(crd);
        return capabilityEnum == null ? null : Set.copyOf(capabilityEnum);
    }

    /**
     * Capability names the installed CRD's enum does not know, left out and named in a condition;
     * the enabled ones among them stay enabled, kept in the annotation {@value
     * KeptCapabilities#ANNOTATION}.
     */
    private ClusterVersionStatus capabilitiesFitted(ClusterVersionStatus status, Instant now) {
        ClusterVersionStatus s =
                Mappers.JSON.convertValue(
                        Mappers.JSON.valueToTree(status), ClusterVersionStatus.class);
        Set<String> dropped = new TreeSet<>();
        Set<String> enabledDropped = new TreeSet<>();
        if (capabilityEnum != null
                && s.getCapabilities() != null
                && s.getCapabilities().getEnabledCapabilities() != null) {
            for (String c : s.getCapabilities().getEnabledCapabilities())
                if (!capabilityEnum.contains(c)) enabledDropped.add(c);
        }
        if (capabilityEnum != null && s.getCapabilities() != null) {
            for (List<String> list :
                    List.of(
                            s.getCapabilities().getEnabledCapabilities(),
                            s.getCapabilities().getKnownCapabilities())) {
                if (list == null) continue;
                for (String c : new ArrayList<>(list)) {
                    if (!capabilityEnum.contains(c)) {
                        list.remove(c);
                        dropped.add(c);
                    }
                }
            }
        }
        String message =
                dropped.isEmpty()
                        ? ""
                        : "The ClusterVersion CRD installed in the cluster does not accept the"
                                + " capability names "
                                + String.join(", ", dropped)
                                + ": left out of status.capabilities"
                                + (enabledDropped.isEmpty()
                                        ? ""
                                        : "; "
                                                + String.join(", ", enabledDropped)
                                                + " stay enabled, kept in the annotation "
                                                + KeptCapabilities.ANNOTATION);
        s.setConditions(
                StatusConditions.set(
                        s.getConditions(),
                        "CapabilitiesReported",
                        dropped.isEmpty() ? "True" : "False",
                        dropped.isEmpty() ? "AsExpected" : "RejectedByInstalledCRD",
                        message,
                        now));
        return s;
    }

    /**
     * The status to write, less what the installed CRD would reject (each such part named in
     * StatusReported=False and, when that changes, a Warning event).
     */
    private JsonNode fit(JsonNode status, Instant now) {
        ObjectNode object = Mappers.JSON.createObjectNode();
        object.set("status", status.deepCopy());
        List<String> rejected = new ArrayList<>();
        for (int round = 0; schema != null && round < 5; round++) {
            List<CrdSchema.Violation> violations =
                    schema.violationsOf(object).stream()
                            .filter(v -> !v.path().isEmpty() && "status".equals(v.path().get(0)))
                            .toList();
            if (violations.isEmpty() || !removeAll(object, violations, rejected)) break;
        }
        String message =
                rejected.isEmpty()
                        ? ""
                        : "The ClusterVersion CRD installed in the cluster rejects "
                                + String.join("; ", rejected)
                                + "; left out of status";
        ClusterVersionStatus s =
                Mappers.JSON.convertValue(object.get("status"), ClusterVersionStatus.class);
        s.setConditions(
                StatusConditions.set(
                        s.getConditions(),
                        "StatusReported",
                        rejected.isEmpty() ? "True" : "False",
                        rejected.isEmpty() ? "AsExpected" : "RejectedByInstalledCRD",
                        message,
                        now));
        if (!message.equals(lastRejection)) {
            lastRejection = message;
            if (!rejected.isEmpty()) events.warning("StatusRejectedByCRD", message);
        }
        return withExplicitNulls(Mappers.JSON.valueToTree(s));
    }

    /** Removes the parts the violations name; false when none could be removed. */
    private static boolean removeAll(
            ObjectNode object, List<CrdSchema.Violation> violations, List<String> rejected) {
        boolean removed = false;
        Set<String> seen = new HashSet<>();
        // deepest first, and list items from the end, so that earlier removals do not move later
        // paths
        List<CrdSchema.Violation> ordered = new ArrayList<>(violations);
        ordered.sort((a, b) -> b.where().compareTo(a.where()));
        for (CrdSchema.Violation v : ordered) {
            List<Object> path = new ArrayList<>(v.path());
            if ("additionalProperties".equals(v.keyword()) && v.property() != null)
                path.add(v.property());
            else if ("required".equals(v.keyword()))
                continue; // nothing to remove: a field the CRD wants is missing
            if (path.size() < 2 || !seen.add(path.toString())) continue;
            JsonNode parent = object;
            for (Object p : path.subList(0, path.size() - 1))
                parent = p instanceof Integer i ? parent.path(i) : parent.path((String) p);
            Object last = path.get(path.size() - 1);
            if (parent instanceof ArrayNode a && last instanceof Integer i && i < a.size())
                a.remove(i);
            else if (parent instanceof ObjectNode o && last instanceof String f && o.has(f))
                o.remove(f);
            else continue;
            rejected.add(CrdSchema.Violation.where(path) + " (" + v.message() + ")");
            removed = true;
        }
        return removed;
    }

    /**
     * OpenShift's CRDs require some nullable fields: an entry in progress has a null
     * completionTime, no answer from the update graph null availableUpdates.
     */
    private static JsonNode withExplicitNulls(JsonNode status) {
        if (!(status instanceof ObjectNode s)) return status;
        ObjectNode copy = s.deepCopy();
        copy.path("history")
                .forEach(
                        h -> {
                            if (h instanceof ObjectNode o && !o.has("completionTime"))
                                o.putNull("completionTime");
                        });
        if (!copy.has("availableUpdates")) copy.putNull("availableUpdates");
        return copy;
    }

    /** The status without the conditions of these types. */
    private static JsonNode without(JsonNode status, String... types) {
        if (!(status instanceof ObjectNode s)) return status;
        ObjectNode copy = s.deepCopy();
        if (copy.get("conditions") instanceof ArrayNode conditions) {
            for (int i = conditions.size() - 1; i >= 0; i--) {
                if (Arrays.asList(types).contains(conditions.get(i).path("type").asText()))
                    conditions.remove(i);
            }
        }
        return copy;
    }

    /** The installed CRD's schema and capability enum, read again when the CRD changes. */
    private void useSchemaOf(GenericKubernetesResource crd) {
        if (crd == null) {
            if (crdVersion != null) validatedFrom = null;
            schema = null;
            capabilityEnum = null;
            crdVersion = null;
            return;
        }
        String rv = crd.getMetadata().getResourceVersion();
        if (rv != null && rv.equals(crdVersion)) return;
        crdVersion = rv;
        validatedFrom = null;
        try {
            byte[] bytes = Mappers.JSON.writeValueAsBytes(crd);
            schema = CrdSchema.of(new ByteArrayInputStream(bytes), "v1");
            JsonNode items =
                    Mappers.JSON
                            .readTree(bytes)
                            .at("/spec/versions")
                            .path(0)
                            .at(
                                    "/schema/openAPIV3Schema/properties/status/properties/capabilities/properties/enabledCapabilities/items/enum");
            capabilityEnum = items instanceof ArrayNode a ? toSet(a) : null;
        } catch (IOException | RuntimeException e) {
            LOG.warn(
                    "customresourcedefinition/{}: cannot read its schema, writing status"
                            + " unvalidated: {}",
                    ClusterCaches.CRD,
                    e.getMessage());
            schema = null;
            capabilityEnum = null;
        }
    }

    private static Set<String> toSet(ArrayNode a) {
        Set<String> s = new HashSet<>();
        a.forEach(n -> s.add(n.asText()));
        return s;
    }
}
