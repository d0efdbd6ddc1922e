package io.upshift.pools.controller;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.upshift.api.json.Mappers;
import io.upshift.base.proxy.ClusterProxy;
import io.upshift.pools.templates.ControllerConfig;
import io.upshift.runtime.kube.Informers;
import io.upshift.runtime.kube.OptionalInformer;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The cluster's {@code config.openshift.io/v1} objects named {@code cluster} that templates read
 * (Proxy, DNS, Network, Infrastructure), as upstream's operator gathers them into its
 * ControllerConfig, each from an informer of an optional kind ({@link OptionalInformer}): a plain
 * Kubernetes cluster serves none of them, and templates then read empty values; a kind whose CRD is
 * installed later is read from then on.
 */
final class ClusterConfigs {
    /** Each kind, its plural, and what templates do without it. */
    private record Kind(String kind, String plural, String without) {}

    private static final List<Kind> KINDS =
            List.of(
                    new Kind("Proxy", "proxies", "rendered configs carry no cluster-wide proxy"),
                    new Kind("DNS", "dnses", "rendered configs carry no cluster base domain"),
                    new Kind(
                            "Network",
                            "networks",
                            "rendered configs carry no cluster DNS service IP"),
                    new Kind(
                            "Infrastructure",
                            "infrastructures",
                            "rendered configs carry no platform or API server URLs"));

    private final Map<String, OptionalInformer<GenericKubernetesResource>> informers =
            new LinkedHashMap<>();

    /**
     * Watches each kind where the cluster serves it, through {@code into}: a change of one, or of
     * whether it is served, asks for a pass.
     */
    ClusterConfigs(KubernetesClient client, Informers into) {
        for (Kind kind : KINDS) {
            ResourceDefinitionContext context =
                    new ResourceDefinitionContext.Builder()
                            .withGroup("config.openshift.io")
                            .withVersion("v1")
                            .withKind(kind.kind())
                            .withPlural(kind.plural())
                            .withNamespaced(false)
                            .build();
            informers.put(
                    kind.kind(),
                    into.optional(
                            new OptionalInformer<>(
                                    client,
                                    kind.plural() + ".config.openshift.io",
                                    kind.without(),
                                    () ->
                                            client.genericKubernetesResources(context)
                                                    .withName("cluster")
                                                    .runnableInformer(0))));
        }
    }

    /**
     * The controller config of {@code releaseVersion} with the release's OS images and the
     * cluster's values now.
     *
     * @throws IllegalArgumentException when the Network's service network is no CIDR
     */
    ControllerConfig controllerConfig(
            String releaseVersion, String osImage, String osExtensionsImage) {
        JsonNode infra = tree("Infrastructure").path("status"), network = tree("Network");
        String platform =
                infra.path("platformStatus").path("type").asText(infra.path("platform").asText(""));
        String dnsIP = "";
        JsonNode serviceNetwork = network.path("spec").path("serviceNetwork");
        if (serviceNetwork.size() > 0) {
            try {
                dnsIP = ControllerConfig.clusterDNSIP(serviceNetwork.get(0).asText());
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "Network cluster: spec.serviceNetwork[0]: " + e.getMessage(), e);
            }
        }
        JsonNode proxy = tree("Proxy");
        return new ControllerConfig(
                releaseVersion,
                osImage,
                osExtensionsImage,
                platform,
                dnsIP,
                tree("DNS").path("spec").path("baseDomain").asText(""),
                infra.path("apiServerURL").asText(""),
                infra.path("apiServerInternalURI").asText(""),
                proxy.isMissingNode() ? ClusterProxy.NONE : ClusterProxy.of(proxy));
    }

    private JsonNode tree(String kind) {
        OptionalInformer<GenericKubernetesResource> informer = informers.get(kind);
        GenericKubernetesResource object = informer == null ? null : informer.get("cluster");
        return object == null ? Mappers.JSON.missingNode() : Mappers.JSON.valueToTree(object);
    }
}
