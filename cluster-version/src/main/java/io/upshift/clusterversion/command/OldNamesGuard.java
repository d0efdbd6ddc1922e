package io.upshift.clusterversion.command;

import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.releases.image.ControllerDeployment;
import java.util.Optional;

/**
 * Upshift under its old names ({@value ControllerDeployment#LEGACY_NAMESPACE}/{@value
 * ControllerDeployment#LEGACY_NAME}, its own Lease) would write ClusterVersion beside this
 * operator: the two Leases do not exclude each other. So the cluster-version controller does not
 * start while that Deployment asks for a replica; one GET at start, nothing more.
 */
final class OldNamesGuard {
    private OldNamesGuard() {}

    /** Why this operator must not start, or empty when the old Deployment is absent or stopped. */
    static Optional<String> refusal(KubernetesClient client) {
        Deployment old;
        try {
            old =
                    client.apps()
                            .deployments()
                            .inNamespace(ControllerDeployment.LEGACY_NAMESPACE)
                            .withName(ControllerDeployment.LEGACY_NAME)
                            .get();
        } catch (KubernetesClientException e) {
            // not allowed to read it, or no answer: the Lease and the install's order still hold
            return Optional.empty();
        }
        return refusal(old);
    }

    /** The decision, on the Deployment as read (null: absent). */
    static Optional<String> refusal(Deployment old) {
        if (old == null || old.getMetadata().getDeletionTimestamp() != null)
            return Optional.empty();
        Integer replicas = old.getSpec() == null ? null : old.getSpec().getReplicas();
        if (replicas != null && replicas == 0) return Optional.empty();
        return Optional.of(
                "the Deployment "
                        + ControllerDeployment.LEGACY_NAMESPACE
                        + "/"
                        + ControllerDeployment.LEGACY_NAME
                        + " (Upshift under its old names) asks for "
                        + (replicas == null ? 1 : replicas)
                        + " replica(s): two cluster-version operators would write ClusterVersion;"
                        + " scale it to 0 first (kubectl -n "
                        + ControllerDeployment.LEGACY_NAMESPACE
                        + " scale deployment/"
                        + ControllerDeployment.LEGACY_NAME
                        + " --replicas=0), as docs/install.md's \"Moving a cluster installed under"
                        + " the old names\" says");
    }
}
