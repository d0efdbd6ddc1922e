package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.base.proxy.ClusterProxy;
import java.util.Set;

/**
 * Upstream's resourcebuilder step for Deployments and DaemonSets annotated {@value #ANNOTATION} (a
 * comma-separated list of container names): the named containers and init containers get {@code
 * HTTP_PROXY}, {@code HTTPS_PROXY} and {@code NO_PROXY} from the cluster's proxy, before the
 * manifest is merged into the live object. Since a container's env is the manifest's whole, the
 * values follow the proxy as it changes, and go when it is removed.
 *
 * <p>({@code config.openshift.io/inject-proxy-cabundle} is not the cluster-version operator's: the
 * operators that own those workloads mount the trusted CA bundle themselves.)
 */
public final class ProxyInjection {
    public static final String ANNOTATION = "config.openshift.io/inject-proxy";
    private static final Set<String> KINDS = Set.of("apps/v1/Deployment", "apps/v1/DaemonSet");

    private ProxyInjection() {}

    /** True when the manifest asks for the proxy (and so whether the proxy must be read at all). */
    public static boolean requested(JsonNode manifest) {
        return KINDS.contains(
                        manifest.path("apiVersion").asText() + "/" + manifest.path("kind").asText())
                && !manifest.path("metadata")
                        .path("annotations")
                        .path(ANNOTATION)
                        .asText("")
                        .isBlank();
    }

    /**
     * The manifest with the proxy set in the containers it names; the manifest itself when it asks
     * for nothing or there is no proxy.
     *
     * @throws IllegalArgumentException when the annotation names a container the pod template does
     *     not have
     */
    public static ObjectNode inject(ObjectNode manifest, ClusterProxy proxy) {
        if (!requested(manifest) || proxy.isNone()) return manifest;
        ObjectNode out = manifest.deepCopy();
        JsonNode pod = out.path("spec").path("template").path("spec");
        for (String raw :
                manifest.path("metadata")
                        .path("annotations")
                        .path(ANNOTATION)
                        .asText()
                        .split(",")) {
            String name = raw.trim();
            if (name.isEmpty()) continue;
            boolean found = false;
            for (String list : new String[] {"containers", "initContainers"}) {
                for (JsonNode c : pod.path(list)) {
                    if (!name.equals(c.path("name").asText())
                            || !(c instanceof ObjectNode container)) continue;
                    found = true;
                    setEnv(container, "HTTP_PROXY", proxy.httpProxy());
                    setEnv(container, "HTTPS_PROXY", proxy.httpsProxy());
                    setEnv(container, "NO_PROXY", proxy.noProxy());
                }
            }
            if (!found)
                throw new IllegalArgumentException(
                        ANNOTATION
                                + " names container \""
                                + name
                                + "\", which the pod template does not have");
        }
        return out;
    }

    /**
     * Replaces the variable where the manifest already sets it (a duplicate name would be
     * ambiguous), else appends it.
     */
    private static void setEnv(ObjectNode container, String name, String value) {
        ArrayNode env = container.get("env") instanceof ArrayNode a ? a : container.putArray("env");
        for (JsonNode e : env) {
            if (name.equals(e.path("name").asText()) && e instanceof ObjectNode var) {
                var.removeAll();
                var.put("name", name).put("value", value);
                return;
            }
        }
        env.addObject().put("name", name).put("value", value);
    }
}
