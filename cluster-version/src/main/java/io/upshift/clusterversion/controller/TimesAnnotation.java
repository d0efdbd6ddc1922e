package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.runtime.kube.MergePatch;
import io.upshift.status.estimate.RunLevelTimes;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Writes the run-level times into the ClusterVersion's annotation {@value RunLevelTimes#ANNOTATION}
 * when they differ from what it holds: a merge patch of that one annotation, which only this
 * controller writes (so no precondition is needed, and no status write of anyone else's conflicts
 * with it). A few writes an update: when a run-level starts or is done.
 */
final class TimesAnnotation {
    private static final Logger LOG = LoggerFactory.getLogger(TimesAnnotation.class);

    private final KubernetesClient client;

    /** The value last written: the cache may not show it yet. */
    private String written;

    final AtomicLong writes = new AtomicLong();

    TimesAnnotation(KubernetesClient client) {
        this.client = client;
    }

    /** Whether it wrote. */
    boolean write(ClusterVersion cv, RunLevelTimes times) {
        if (times == null) {
            return false;
        }
        String value = times.toAnnotation();
        Map<String, String> a = cv.getMetadata().getAnnotations();
        if (value.equals(a == null ? null : a.get(RunLevelTimes.ANNOTATION))
                || value.equals(written)) {
            return false;
        }
        MergePatch.ofOwnFields().annotate(RunLevelTimes.ANNOTATION, value).sendTo(client, cv);
        written = value;
        writes.incrementAndGet();
        LOG.debug("clusterversion/{}: run-level times written", cv.getMetadata().getName());
        return true;
    }
}
