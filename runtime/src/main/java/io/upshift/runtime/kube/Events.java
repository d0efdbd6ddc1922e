package io.upshift.runtime.kube;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Kubernetes Events about one object, each also logged, aggregated as client-go's event recorder
 * does: an event of the same type and reason as one recorded less than {@link #WINDOW} ago counts
 * on that Event (count, lastTimestamp, latest message; a merge patch of those fields alone) instead
 * of making a new one. A target refused for an hour thus makes a handful of Events, not one per
 * retry. An event that cannot be written is only logged.
 */
public final class Events {
    /**
     * How long a recorded Event takes the repeats of its type and reason (client-go: 10 minutes).
     */
    public static final Duration WINDOW = Duration.ofMinutes(10);

    private static final Logger LOG = LoggerFactory.getLogger(Events.class);

    /** An Event this recorder wrote, and what it has counted. */
    private record Recorded(String name, int count, Instant first, Instant last) {}

    private final KubernetesClient client;
    private final Clock clock;
    private final ObjectReference about;
    private final String component;
    private final String subject;
    private final Map<String, Recorded> recent = new HashMap<>();

    /** Events about a cluster-scoped object (recorded in namespace "default", as for nodes). */
    public Events(
            KubernetesClient client,
            Clock clock,
            String apiVersion,
            String kind,
            String name,
            String component) {
        this.client = client;
        this.clock = clock;
        this.about =
                new ObjectReferenceBuilder()
                        .withApiVersion(apiVersion)
                        .withKind(kind)
                        .withName(name)
                        .build();
        this.component = component;
        this.subject = kind.toLowerCase(Locale.ROOT) + "/" + name;
    }

    public void normal(String reason, String message) {
        emit("Normal", reason, message);
    }

    public void warning(String reason, String message) {
        emit("Warning", reason, message);
    }

    private synchronized void emit(String type, String reason, String message) {
        if (type.equals("Warning")) LOG.warn("{}: {}: {}", subject, reason, message);
        else LOG.info("{}: {}: {}", subject, reason, message);
        Instant now = clock.instant();
        String key = type + "/" + reason;
        Recorded before = recent.get(key);
        try {
            if (before != null && now.isBefore(before.last().plus(WINDOW))) {
                recent.put(key, count(before, message, now));
            } else {
                recent.put(key, create(type, reason, message, now));
            }
        } catch (KubernetesClientException e) {
            if (before != null && e.getCode() == 404)
                recent.remove(key); // the Event expired: the next one starts anew
            LOG.warn(
                    "{}: event {} not recorded ({}); logged only",
                    subject,
                    reason,
                    ApiErrors.describe(e));
        }
    }

    private Recorded create(String type, String reason, String message, Instant now) {
        String name = about.getName() + "." + UUID.randomUUID().toString().substring(0, 13);
        client.v1()
                .events()
                .inNamespace("default")
                .resource(
                        new EventBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .withNamespace("default")
                                .endMetadata()
                                .withInvolvedObject(about)
                                .withType(type)
                                .withReason(reason)
                                .withMessage(message)
                                .withFirstTimestamp(now.toString())
                                .withLastTimestamp(now.toString())
                                .withCount(1)
                                .withNewSource()
                                .withComponent(component)
                                .endSource()
                                .build())
                .create();
        return new Recorded(name, 1, now, now);
    }

    /**
     * One more of an Event already recorded: its own fields only, as a merge patch (the Event is
     * this recorder's).
     */
    private Recorded count(Recorded before, String message, Instant now) {
        MergePatch patch =
                MergePatch.ofOwnFields()
                        .set("count", before.count() + 1)
                        .set("lastTimestamp", now.toString())
                        .set("message", message);
        patch.sendTo(
                client,
                new EventBuilder()
                        .withNewMetadata()
                        .withName(before.name())
                        .withNamespace("default")
                        .endMetadata()
                        .build());
        return new Recorded(before.name(), before.count() + 1, before.first(), now);
    }
}
