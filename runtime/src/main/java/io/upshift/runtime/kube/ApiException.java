package io.upshift.runtime.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;

/**
 * An API request failed; the message names the resource, the HTTP status and the server's reason in
 * one line.
 */
public class ApiException extends RuntimeException {
    public ApiException(String resource, KubernetesClientException e) {
        super(describe(resource, e), e);
    }

    private static String describe(String resource, KubernetesClientException e) {
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
                        : ApiErrors.describe(e);
        return "cannot read "
                + resource
                + ": "
                + (code > 0 ? "HTTP " + code + " " : "")
                + (reason != null ? reason : detail);
    }
}
