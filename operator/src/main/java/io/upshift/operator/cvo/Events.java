package io.upshift.operator.cvo;

import io.fabric8.kubernetes.api.model.EventBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.time.Clock;
import java.util.UUID;
import java.util.function.Consumer;

/** Kubernetes Events on ClusterVersion "version" for each step; an event that cannot be written is only logged. */
final class Events {

    private final KubernetesClient client;
    private final Clock clock;
    private final Consumer<String> log;

    Events(KubernetesClient client, Clock clock, Consumer<String> log) {
        this.client = client;
        this.clock = clock;
        this.log = log;
    }

    void normal(String reason, String message) {
        emit("Normal", reason, message);
    }

    void warning(String reason, String message) {
        emit("Warning", reason, message);
    }

    private void emit(String type, String reason, String message) {
        log.accept("clusterversion/version: " + reason + ": " + message);
        String now = clock.instant().toString();
        try {
            client.v1().events().inNamespace("default").resource(new EventBuilder()
                    .withNewMetadata().withName("version." + UUID.randomUUID().toString().substring(0, 13)).withNamespace("default").endMetadata()
                    .withNewInvolvedObject().withApiVersion("config.openshift.io/v1").withKind("ClusterVersion").withName("version").endInvolvedObject()
                    .withType(type).withReason(reason).withMessage(message).withFirstTimestamp(now).withLastTimestamp(now).withCount(1)
                    .withNewSource().withComponent("upshift-cluster-version").endSource()
                    .build()).create();
        } catch (KubernetesClientException e) {
            log.accept("event " + reason + " not recorded: " + e.getMessage());
        }
    }
}
