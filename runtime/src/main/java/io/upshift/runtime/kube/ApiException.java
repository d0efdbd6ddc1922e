package io.upshift.runtime.kube;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.runtime.fetch.NetworkErrors;
import java.net.URL;

/**
 * An API request failed; the message names the resource, the HTTP status and the server's reason in
 * one line.
 */
public class ApiException extends RuntimeException {
    public ApiException(String resource, KubernetesClientException e) {
        super(describe(resource, e, null), e);
    }

    /**
     * A request to {@code client}'s API server failed: a request that got no answer names the
     * server's address, which the failure itself may not.
     */
    public ApiException(KubernetesClient client, String resource, KubernetesClientException e) {
        super(describe(resource, e, address(client)), e);
    }

    private static String address(KubernetesClient client) {
        URL url = client.getMasterUrl();
        return url == null
                ? null
                : url.getHost() + ":" + (url.getPort() > 0 ? url.getPort() : url.getDefaultPort());
    }

    private static String describe(String resource, KubernetesClientException e, String server) {
        int code = e.getCode();
        String reason =
                switch (code) {
                    case 401 -> "unauthorized: the credentials were not accepted";
                    case 403 -> "forbidden: the account may not read it";
                    case 404 ->
                            "not found: is this an OpenShift-compatible cluster with Upshift's CRDs"
                                    + " installed?";
                    default -> null;
                };
        String detail =
                e.getStatus() != null && e.getStatus().getMessage() != null
                        ? e.getStatus().getMessage()
                        : code <= 0 && server != null && NetworkErrors.unanswered(e) != null
                                ? NetworkErrors.unanswered(e, server)
                                : ApiErrors.describe(e);
        return "cannot read "
                + resource
                + ": "
                + (code > 0 ? "HTTP " + code + " " : "")
                + (reason != null ? reason : detail);
    }
}
