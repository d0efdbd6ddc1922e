package io.upshift.operator.pools;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.APIResourceList;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.upshift.api.json.Mappers;
import io.upshift.core.proxy.ClusterProxy;
import io.upshift.core.templates.ControllerConfig;
import io.upshift.operator.cluster.Informers;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The cluster's {@code config.openshift.io/v1} objects named {@code cluster} that templates read (Proxy, DNS, Network,
 * Infrastructure), as upstream's operator gathers them into its ControllerConfig, each from an informer. A kind the
 * API server does not serve when the controller starts (a plain Kubernetes cluster has none of them) is not watched:
 * its values are empty.
 */
final class ClusterConfigs {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterConfigs.class);
    private static final String GROUP_VERSION = "config.openshift.io/v1";
    private static final Map<String, String> KINDS = Map.of("Proxy", "proxies", "DNS", "dnses", "Network", "networks", "Infrastructure", "infrastructures");

    private final KubernetesClient client;
    private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers = new LinkedHashMap<>();

    ClusterConfigs(KubernetesClient client) {
        this.client = client;
    }

    /** Watches each kind the API server serves; a change of one asks for a pass. */
    void register(Informers into) {
        Set<String> served = served();
        for (Map.Entry<String, String> kind : KINDS.entrySet()) {
            if (!served.contains(kind.getValue())) continue;
            ResourceDefinitionContext context = new ResourceDefinitionContext.Builder().withGroup("config.openshift.io").withVersion("v1")
                    .withKind(kind.getKey()).withPlural(kind.getValue()).withNamespaced(false).build();
            informers.put(kind.getKey(), into.add(client.genericKubernetesResources(context).withName("cluster").runnableInformer(0)));
        }
        LOG.info("templates read the cluster's {}", informers.isEmpty() ? "nothing (no config.openshift.io/v1 Proxy, DNS, Network or Infrastructure)"
                : String.join(", ", informers.keySet()));
    }

    private Set<String> served() {
        try {
            APIResourceList list = client.getApiResources(GROUP_VERSION);
            return list == null ? Set.of() : list.getResources().stream().map(r -> r.getName()).collect(Collectors.toSet());
        } catch (KubernetesClientException e) {
            return Set.of(); // the group is not served at all
        }
    }

    /**
     * The controller config of {@code releaseVersion} with the release's OS images and the cluster's values now.
     *
     * @throws IllegalArgumentException when the Network's service network is no CIDR
     */
    ControllerConfig controllerConfig(String releaseVersion, String osImage, String osExtensionsImage) {
        JsonNode infra = tree("Infrastructure").path("status"), network = tree("Network");
        String platform = infra.path("platformStatus").path("type").asText(infra.path("platform").asText(""));
        String dnsIP = "";
        JsonNode serviceNetwork = network.path("spec").path("serviceNetwork");
        if (serviceNetwork.size() > 0) {
            try {
                dnsIP = ControllerConfig.clusterDNSIP(serviceNetwork.get(0).asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("Network cluster: spec.serviceNetwork[0]: " + e.getMessage(), e);
            }
        }
        JsonNode proxy = tree("Proxy");
        return new ControllerConfig(releaseVersion, osImage, osExtensionsImage, platform, dnsIP,
                tree("DNS").path("spec").path("baseDomain").asText(""), infra.path("apiServerURL").asText(""),
                infra.path("apiServerInternalURI").asText(""), proxy.isMissingNode() ? ClusterProxy.NONE : ClusterProxy.of(proxy));
    }

    private JsonNode tree(String kind) {
        SharedIndexInformer<GenericKubernetesResource> informer = informers.get(kind);
        GenericKubernetesResource object = informer == null ? null : informer.getStore().getByKey("cluster");
        return object == null ? Mappers.JSON.missingNode() : Mappers.JSON.valueToTree(object);
    }
}
