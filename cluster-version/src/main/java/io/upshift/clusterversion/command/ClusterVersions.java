package io.upshift.clusterversion.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.clusterversion.upgrade.Decision;
import io.upshift.runtime.kube.MergePatch;
import io.upshift.status.reader.ClusterReader;
import java.io.PrintWriter;

/**
 * Reads the cluster's one ClusterVersion ({@code version}) and carries out what an update command
 * decided on it.
 */
public final class ClusterVersions {
    static final String NAME = "clusterversions.config.openshift.io/version";

    private ClusterVersions() {}

    /** The ClusterVersion, or null when it does not exist. */
    static ClusterVersion get(KubernetesClient client) {
        return ClusterReader.call(
                client,
                NAME,
                () -> client.resources(ClusterVersion.class).withName("version").get());
    }

    /**
     * The ClusterVersion; its absence is an error with the words {@code absent} (each oc command
     * has its own).
     */
    static ClusterVersion require(KubernetesClient client, String absent) {
        ClusterVersion cv = get(client);
        if (cv == null) throw new IllegalStateException(absent);
        return cv;
    }

    /**
     * Prints the decision's warnings to stderr, then refuses (an error with oc's text), prints that
     * nothing changes, or writes its merge patch and prints what was done, as oc does. A merge
     * patch names only the fields the command sets, so it needs no resourceVersion: nobody else's
     * change is overwritten.
     */
    static void carryOut(
            KubernetesClient client, Decision decision, PrintWriter out, PrintWriter err) {
        decision.warnings().forEach(err::print);
        err.flush();
        if (decision instanceof Decision.Refused r) throw new IllegalStateException(r.message());
        if (decision instanceof Decision.Unchanged u) out.print(u.message());
        if (decision instanceof Decision.Patch p) {
            ClusterVersion written;
            try {
                written =
                        client.resources(ClusterVersion.class)
                                .withName("version")
                                .patch(MergePatch.CONTEXT, p.body());
            } catch (KubernetesClientException e) {
                throw new IllegalStateException(p.failure() + ": " + reason(e), e);
            }
            out.print(p.done().apply(written));
        }
        out.flush();
    }

    /**
     * The API server's own message (what oc prints for a failed request), else the client's first
     * line.
     */
    private static String reason(KubernetesClientException e) {
        if (e.getStatus() != null
                && e.getStatus().getMessage() != null
                && !e.getStatus().getMessage().isEmpty()) return e.getStatus().getMessage();
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.lines().findFirst().orElse(m);
    }
}
