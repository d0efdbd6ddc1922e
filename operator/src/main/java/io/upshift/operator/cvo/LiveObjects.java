package io.upshift.operator.cvo;

import io.fabric8.kubernetes.api.Pluralize;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.upshift.core.payload.Manifest;
import java.util.Locale;

/**
 * The API handle of a manifest's object, for any kind: the resource path comes from the manifest itself (group,
 * version, kind pluralized, namespaced when it names a namespace), so no discovery is needed.
 */
final class LiveObjects {

    private LiveObjects() {
    }

    static Resource<GenericKubernetesResource> of(KubernetesClient client, Manifest m) {
        String apiVersion = m.apiVersion();
        int slash = apiVersion.indexOf('/');
        ResourceDefinitionContext ctx = new ResourceDefinitionContext.Builder()
                .withGroup(slash < 0 ? "" : apiVersion.substring(0, slash))
                .withVersion(slash < 0 ? apiVersion : apiVersion.substring(slash + 1))
                .withKind(m.kind())
                .withPlural(Pluralize.toPlural(m.kind().toLowerCase(Locale.ROOT)))
                .withNamespaced(!m.namespace().isEmpty())
                .build();
        var resources = client.genericKubernetesResources(ctx);
        return m.namespace().isEmpty() ? resources.withName(m.name()) : resources.inNamespace(m.namespace()).withName(m.name());
    }
}
