package io.upshift.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.operator.cluster.ClusterReader;

/** Reads and writes the cluster's one ClusterVersion ({@code version}); an API refusal becomes one line naming it. */
final class ClusterVersions {
    static final String NAME = "clusterversions.config.openshift.io/version";

    private ClusterVersions() {
    }

    /** The ClusterVersion, or null when it does not exist. */
    static ClusterVersion get(KubernetesClient client) {
        return ClusterReader.call(NAME, () -> client.resources(ClusterVersion.class).withName("version").get());
    }

    /** The ClusterVersion; its absence is an error saying what it means. */
    static ClusterVersion require(KubernetesClient client) {
        ClusterVersion cv = get(client);
        if (cv == null) throw new IllegalStateException(NAME + " does not exist: is Upshift (or OpenShift) installed?");
        return cv;
    }

    static void update(KubernetesClient client, ClusterVersion cv) {
        ClusterReader.call(NAME, () -> client.resources(ClusterVersion.class).resource(cv).update());
    }
}
