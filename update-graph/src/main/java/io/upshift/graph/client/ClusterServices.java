package io.upshift.graph.client;

import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.runtime.kube.ApiErrors;

/**
 * Service cluster IPs read from the API server, one GET per lookup (at most one PromQL evaluation a
 * second, and in practice one an hour per rule), as upstream's promql condition does.
 */
public final class ClusterServices implements ServiceLookup {
    private final KubernetesClient client;

    public ClusterServices(KubernetesClient client) {
        this.client = client;
    }

    @Override
    public String clusterIp(String namespace, String name) throws Exception {
        Service s;
        try {
            s = client.services().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new Exception(ApiErrors.describe(e), e);
        }
        if (s == null) throw new Exception("services \"" + name + "\" not found");
        String ip = s.getSpec() == null ? null : s.getSpec().getClusterIP();
        if (ip == null || ip.isEmpty() || "None".equals(ip))
            throw new Exception(
                    "service " + namespace + "/" + name + " has no cluster IP (" + ip + ")");
        return ip;
    }
}
