package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.ProxyRules;
import io.upshift.releases.image.RegistryAccess;
import io.upshift.releases.image.RegistryMirrors;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.runtime.kube.ApiErrors;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How this cluster reaches registries, read from the cluster when a release is retrieved (rarely:
 * no informer is kept for it): the pull secret {@code openshift-config/pull-secret} and the mirror
 * rules of every ImageDigestMirrorSet, ImageTagMirrorSet and ImageContentSourcePolicy; with the
 * cluster's proxy, which the controller's caches hold ({@link ClusterCaches#egress()}). A kind the
 * cluster does not serve (a plain Kubernetes cluster: no CRD) means no rule of that kind, said once
 * in the log; a kind that cannot be read (403: the account may not; or the API server failed) fails
 * the retrieval, naming it, rather than pull around the cluster's mirrors; a pull secret that is
 * not a docker config is an error, not anonymous access.
 */
final class ClusterRegistryAccess {
    private static final Logger LOG = LoggerFactory.getLogger(ClusterRegistryAccess.class);

    static final String PULL_SECRET_NAMESPACE = "openshift-config";
    static final String PULL_SECRET = "pull-secret";
    static final ResourceDefinitionContext IDMS =
            cluster("config.openshift.io", "v1", "ImageDigestMirrorSet", "imagedigestmirrorsets");
    static final ResourceDefinitionContext ITMS =
            cluster("config.openshift.io", "v1", "ImageTagMirrorSet", "imagetagmirrorsets");
    static final ResourceDefinitionContext ICSP =
            cluster(
                    "operator.openshift.io",
                    "v1alpha1",
                    "ImageContentSourcePolicy",
                    "imagecontentsourcepolicies");

    private final KubernetesClient client;

    /** The kinds already said to be absent. */
    private final Set<String> reportedAbsent = ConcurrentHashMap.newKeySet();

    ClusterRegistryAccess(KubernetesClient client) {
        this.client = client;
    }

    /**
     * {@code base} (its architecture, its defaults) with the cluster's logins and mirrors, through
     * {@code proxy}.
     */
    RegistryAccess read(RegistryAccess base, ProxyRules proxy) throws ReleaseException {
        RegistryAccess access = base.withMirrors(mirrors());
        DockerCredentials secret = pullSecret();
        if (secret != null) access = access.withCredentials(secret);
        return access.withProxy(proxy.selector());
    }

    private DockerCredentials pullSecret() throws ReleaseException {
        String where = "Secret " + PULL_SECRET_NAMESPACE + "/" + PULL_SECRET;
        Secret s;
        try {
            s = client.secrets().inNamespace(PULL_SECRET_NAMESPACE).withName(PULL_SECRET).get();
        } catch (KubernetesClientException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_UNAUTHORIZED,
                    "cannot read " + where + ": " + ApiErrors.describe(e),
                    e);
        }
        if (s == null) return null; // no pull secret: anonymous pulls, as from a public registry
        String json = s.getData() == null ? null : s.getData().get(".dockerconfigjson");
        if (json == null)
            throw new ReleaseException(
                    Reason.REGISTRY_UNAUTHORIZED,
                    where + " has no .dockerconfigjson key (type " + s.getType() + ")");
        try {
            return DockerCredentials.parse(Base64.getDecoder().decode(json), where);
        } catch (IllegalArgumentException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_UNAUTHORIZED, where + ": .dockerconfigjson is not base64");
        }
    }

    private RegistryMirrors mirrors() throws ReleaseException {
        List<RegistryMirrors.Rule> digest = new ArrayList<>(), tag = new ArrayList<>();
        for (GenericKubernetesResource r :
                list(IDMS, "no digest mirror rules from ImageDigestMirrorSets"))
            rules(r, "imageDigestMirrors", digest);
        for (GenericKubernetesResource r :
                list(ICSP, "no digest mirror rules from ImageContentSourcePolicies"))
            rules(r, "repositoryDigestMirrors", digest);
        for (GenericKubernetesResource r :
                list(ITMS, "no tag mirror rules from ImageTagMirrorSets"))
            rules(r, "imageTagMirrors", tag);
        return new RegistryMirrors(digest, tag);
    }

    @SuppressWarnings("unchecked")
    private static void rules(
            GenericKubernetesResource r, String field, List<RegistryMirrors.Rule> out) {
        Object spec = r.getAdditionalProperties().get("spec");
        if (!(spec instanceof Map<?, ?> m) || !(m.get(field) instanceof List<?> entries)) return;
        for (Object e : entries) {
            if (!(e instanceof Map<?, ?> entry) || !(entry.get("source") instanceof String source))
                continue;
            List<String> mirrors =
                    entry.get("mirrors") instanceof List<?> l
                            ? l.stream().map(String::valueOf).toList()
                            : List.of();
            out.add(
                    new RegistryMirrors.Rule(
                            source,
                            mirrors,
                            "NeverContactSource".equals(entry.get("mirrorSourcePolicy"))));
        }
    }

    private List<GenericKubernetesResource> list(ResourceDefinitionContext kind, String without)
            throws ReleaseException {
        try {
            return client.genericKubernetesResources(kind).list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404)
                throw unreadable(kind, "list", e, "its mirror rules would be ignored");
            if (reportedAbsent.add(kind.getPlural())) {
                LOG.info(
                        "{}.{}: the cluster does not serve this kind (no CRD); working without it:"
                                + " {}",
                        kind.getPlural(),
                        kind.getGroup(),
                        without);
            }
            return List.of();
        }
    }

    private static ReleaseException unreadable(
            ResourceDefinitionContext kind, String verb, KubernetesClientException e, String why) {
        return new ReleaseException(
                Reason.CLUSTER_CONFIG_UNREADABLE,
                "cannot "
                        + verb
                        + " "
                        + kind.getPlural()
                        + "."
                        + kind.getGroup()
                        + " ("
                        + ApiErrors.describe(e)
                        + "), and "
                        + why,
                e);
    }

    private static ResourceDefinitionContext cluster(
            String group, String version, String kind, String plural) {
        return new ResourceDefinitionContext.Builder()
                .withGroup(group)
                .withVersion(version)
                .withKind(kind)
                .withPlural(plural)
                .withNamespaced(false)
                .build();
    }
}
