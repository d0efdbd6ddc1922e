package io.upshift.testkit;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinition;
import io.fabric8.kubernetes.api.model.apiextensions.v1.CustomResourceDefinitionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import java.util.Arrays;
import java.util.Map;

/**
 * OpenShift's monitoring as a cluster finds it: the Route kind ({@code route.openshift.io/v1}, a
 * CRD here, built into OpenShift's API server) and the Route {@code
 * openshift-monitoring/thanos-querier} admitted at given hosts, which {@code oc adm upgrade status}
 * reads alerts through. Put a {@link BearerTokenFront} at the host.
 */
public final class ThanosRoute {

    private ThanosRoute() {}

    /** The Route CRD: the kind, served; any content kept. */
    public static CustomResourceDefinition crd() {
        return new CustomResourceDefinitionBuilder()
                .withNewMetadata()
                .withName("routes.route.openshift.io")
                .endMetadata()
                .withNewSpec()
                .withGroup("route.openshift.io")
                .withScope("Namespaced")
                .withNewNames()
                .withKind("Route")
                .withListKind("RouteList")
                .withPlural("routes")
                .withSingular("route")
                .endNames()
                .addNewVersion()
                .withName("v1")
                .withServed(true)
                .withStorage(true)
                .withNewSchema()
                .withNewOpenAPIV3Schema()
                .withType("object")
                .withXKubernetesPreserveUnknownFields(true)
                .endOpenAPIV3Schema()
                .endSchema()
                .endVersion()
                .endSpec()
                .build();
    }

    /** The thanos-querier Route, admitted by the default router at each of {@code hosts}. */
    public static GenericKubernetesResource route(String... hosts) {
        GenericKubernetesResource r = new GenericKubernetesResource();
        r.setApiVersion("route.openshift.io/v1");
        r.setKind("Route");
        r.setMetadata(
                new ObjectMetaBuilder()
                        .withNamespace("openshift-monitoring")
                        .withName("thanos-querier")
                        .build());
        r.setAdditionalProperty(
                "spec",
                Map.of(
                        "host",
                        hosts[0],
                        "path",
                        "/api",
                        "to",
                        Map.of("kind", "Service", "name", "thanos-querier"),
                        "tls",
                        Map.of("termination", "reencrypt")));
        r.setAdditionalProperty(
                "status",
                Map.of(
                        "ingress",
                        Arrays.stream(hosts)
                                .map(h -> Map.of("host", h, "routerName", "default"))
                                .toList()));
        return r;
    }

    /** Installs the kind and the Route on the server {@code admin} reaches. */
    public static void install(KubernetesClient admin, String... hosts) {
        admin.apiextensions().v1().customResourceDefinitions().resource(crd()).create();
        admin.resource(route(hosts)).create();
    }
}
