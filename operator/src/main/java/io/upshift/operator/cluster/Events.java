package io.upshift.operator.cluster;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.api.model.ObjectReference;
import io.fabric8.kubernetes.api.model.ObjectReferenceBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.UUID;
import java.util.function.Consumer;

/** Kubernetes Events about one object, each also logged; an event that cannot be written is only logged. */
public final class Events {

    private final KubernetesClient client;
    private final Clock clock;
    private final Consumer<String> log;
    private final ObjectReference about;
    private final String component;

    /** Events about a cluster-scoped object (recorded in namespace "default", as for nodes). */
    public Events(KubernetesClient client, Clock clock, Consumer<String> log, String apiVersion, String kind, String name, String component) {
        this.client = client;
        this.clock = clock;
        this.log = log;
        this.about = new ObjectReferenceBuilder().withApiVersion(apiVersion).withKind(kind).withName(name).build();
        this.component = component;
    }

    public void normal(String reason, String message) {
        emit("Normal", reason, message);
    }

    public void warning(String reason, String message) {
        emit("Warning", reason, message);
    }

    private void emit(String type, String reason, String message) {
        log.accept(about.getKind().toLowerCase() + "/" + about.getName() + ": " + reason + ": " + message);
        String now = clock.instant().toString();
        try {
            client.v1().events().inNamespace("default").resource(new EventBuilder()
                    .withNewMetadata().withName(about.getName() + "." + UUID.randomUUID().toString().substring(0, 13)).withNamespace("default").endMetadata()
                    .withInvolvedObject(about)
                    .withType(type).withReason(reason).withMessage(message).withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                    .withNewSource().withComponent(component).endSource()
                    .build()).create();
        } catch (KubernetesClientException e) {
            log.accept("event " + reason + " not recorded: " + e.getMessage());
        }
    }
}
