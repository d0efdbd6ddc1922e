package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.clusterversion.model.KeptCapabilities;
import io.upshift.runtime.kube.MergePatch;
import java.util.Collection;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the enabled capabilities into the ClusterVersion's annotation {@value
 * KeptCapabilities#ANNOTATION} when {@link KeptCapabilities#annotation} says so: a merge patch of
 * that one annotation, which only this controller writes. It is written before the status that
 * leaves a capability out, so that no crash in between forgets one.
 */
final class CapabilitiesAnnotation {
    private static final Logger LOG = LoggerFactory.getLogger(CapabilitiesAnnotation.class);

    private final KubernetesClient client;

    /**
     * The resourceVersion of the object the last write was computed from: while the cache still
     * holds it, it has not seen that write.
     */
    private String writtenFrom = "";

    final AtomicLong writes = new AtomicLong();

    CapabilitiesAnnotation(KubernetesClient client) {
        this.client = client;
    }

    /**
     * Writes the annotation when it must change; true when it wrote (the object's resourceVersion
     * moved: a status computed from {@code cv} would be refused).
     */
    boolean write(ClusterVersion cv, Collection<String> enabled, Set<String> accepted) {
        Optional<String> value = KeptCapabilities.annotation(cv, enabled, accepted);
        if (value.isEmpty() || writtenFrom.equals(cv.getMetadata().getResourceVersion()))
            return false;
        MergePatch.ofOwnFields()
                .annotate(KeptCapabilities.ANNOTATION, value.get())
                .sendTo(client, cv);
        writtenFrom = cv.getMetadata().getResourceVersion();
        writes.incrementAndGet();
        LOG.info(
                "clusterversion/{}: enabled capabilities kept in annotation {}: {}",
                cv.getMetadata().getName(),
                KeptCapabilities.ANNOTATION,
                value.get());
        return true;
    }
}
