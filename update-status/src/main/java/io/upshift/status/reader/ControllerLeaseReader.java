package io.upshift.status.reader;

import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.kubernetes.api.model.coordination.v1.LeaseSpec;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.status.model.ControllerPresence;
import java.time.Duration;
import java.util.Optional;

/**
 * Reads the cluster-version controller's Lease for {@link ControllerPresence}: upstream's name,
 * which Upshift holds as OpenShift's operator does, else Upshift's old one (a cluster not yet
 * moved); a GET each. Empty when there is neither, or it cannot be read (the user may not read
 * Leases): then nothing is said of the controller, rather than something wrong.
 */
public final class ControllerLeaseReader {
    private ControllerLeaseReader() {}

    public static Optional<ControllerPresence.Lease> read(KubernetesClient client) {
        try {
            Optional<ControllerPresence.Lease> lease =
                    read(client, ControllerPresence.NAMESPACE, ControllerPresence.LEASE);
            return lease.isPresent()
                    ? lease
                    : read(
                            client,
                            ControllerPresence.LEGACY_NAMESPACE,
                            ControllerPresence.LEGACY_LEASE);
        } catch (KubernetesClientException e) {
            return Optional.empty();
        }
    }

    private static Optional<ControllerPresence.Lease> read(
            KubernetesClient client, String namespace, String name) {
        Lease lease = client.resources(Lease.class).inNamespace(namespace).withName(name).get();
        if (lease == null) return Optional.empty();
        LeaseSpec spec = lease.getSpec() == null ? new LeaseSpec() : lease.getSpec();
        return Optional.of(
                new ControllerPresence.Lease(
                        namespace + "/" + name,
                        spec.getHolderIdentity(),
                        spec.getRenewTime() == null ? null : spec.getRenewTime().toInstant(),
                        spec.getLeaseDurationSeconds() == null
                                ? null
                                : Duration.ofSeconds(spec.getLeaseDurationSeconds())));
    }
}
