package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.Pluralize;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.upshift.releases.manifest.Manifest;
import java.util.Locale;

/**
 * The API handle of a manifest's object, for any kind: the resource path comes from the manifest
 * itself (group, version, kind pluralized, namespaced when it names a namespace), so no discovery
 * is needed.
 */
final class LiveObjects {

    private LiveObjects() {}

    static Resource<GenericKubernetesResource> of(KubernetesClient client, Manifest m) {
        var resources = client.genericKubernetesResources(context(m));
        return m.namespace().isEmpty()
                ? resources.withName(m.name())
                : resources.inNamespace(m.namespace()).withName(m.name());
    }

    /** The API handle for writing {@code item}, the manifest's object in the form to write. */
    static Resource<GenericKubernetesResource> of(
            KubernetesClient client, Manifest m, GenericKubernetesResource item) {
        var resources = client.genericKubernetesResources(context(m));
        return m.namespace().isEmpty()
                ? resources.resource(item)
                : resources.inNamespace(m.namespace()).resource(item);
    }

    /** The API path of a manifest's kind: namespaced when the manifest names a namespace. */
    static ResourceDefinitionContext context(Manifest m) {
        return context(m.apiVersion(), m.kind(), !m.namespace().isEmpty());
    }

    /**
     * The API path of a kind, its plural derived from the kind as the API server does for built-in
     * kinds.
     */
    static ResourceDefinitionContext context(String apiVersion, String kind, boolean namespaced) {
        int slash = apiVersion.indexOf('/');
        return new ResourceDefinitionContext.Builder()
                .withGroup(slash < 0 ? "" : apiVersion.substring(0, slash))
                .withVersion(slash < 0 ? apiVersion : apiVersion.substring(slash + 1))
                .withKind(kind)
                .withPlural(Pluralize.toPlural(kind.toLowerCase(Locale.ROOT)))
                .withNamespaced(namespaced)
                .build();
    }
}
