package io.upshift.base.proxy;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * The cluster-wide egress proxy in effect: the status of the {@code config.openshift.io/v1} Proxy
 * {@code cluster} (its status, not its spec: the network operator publishes there what it validated
 * and completed, noProxy included).
 */
public record ClusterProxy(String httpProxy, String httpsProxy, String noProxy) {
    /** No Proxy object, or one that sets nothing. */
    public static final ClusterProxy NONE = new ClusterProxy("", "", "");

    /** From a Proxy object as JSON; {@link #NONE} for null. */
    public static ClusterProxy of(JsonNode proxy) {
        if (proxy == null) return NONE;
        JsonNode status = proxy.path("status");
        return new ClusterProxy(
                status.path("httpProxy").asText(""),
                status.path("httpsProxy").asText(""),
                status.path("noProxy").asText(""));
    }

    public boolean isNone() {
        return httpProxy.isEmpty() && httpsProxy.isEmpty() && noProxy.isEmpty();
    }
}
