package io.upshift.runtime.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.runtime.fetch.NetworkErrors;

/**
 * Failed API requests and watches in one line each: the HTTP status and the server's own message
 * (which names the resource and, for a 403, the account and the verb refused), or the first line of
 * the innermost cause.
 */
public final class ApiErrors {
    private ApiErrors() {}

    /**
     * The HTTP status of the request that failed, 0 when there was no answer (a closed connection,
     * a timeout).
     */
    public static int code(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof KubernetesClientException k && k.getCode() > 0) return k.getCode();
        }
        return 0;
    }

    /**
     * e.g. {@code HTTP 403: featuregates.config.openshift.io "cluster" is forbidden: User "..."
     * cannot list ...}.
     */
    public static String describe(Throwable t) {
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c instanceof KubernetesClientException k && k.getCode() > 0) {
                String message =
                        k.getStatus() != null
                                        && k.getStatus().getMessage() != null
                                        && !k.getStatus().getMessage().isBlank()
                                ? k.getStatus().getMessage()
                                : reasonOf(k.getCode());
                return "HTTP " + k.getCode() + ": " + firstLine(message);
            }
        }
        String unanswered = NetworkErrors.unanswered(t);
        if (unanswered != null) return unanswered;
        String innermost = null;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) innermost = c.getMessage();
        }
        return innermost == null ? t.getClass().getSimpleName() : firstLine(innermost);
    }

    private static String reasonOf(int code) {
        return switch (code) {
            case 401 -> "unauthorized";
            case 403 -> "forbidden";
            case 404 -> "the server could not find the requested resource";
            case 409 -> "conflict";
            case 410 -> "gone";
            case 429 -> "too many requests";
            default -> code >= 500 ? "server error" : "failed";
        };
    }

    private static String firstLine(String m) {
        return m.lines().findFirst().orElse(m).strip();
    }

    /**
     * The resource an informer serves, named as {@code kubectl} names it, from its API endpoint
     * path (fabric8's description of an informer): {@code config.openshift.io/v1/featuregates} is
     * {@code featuregates.config.openshift.io}, {@code v1/namespaces/default/events} is {@code
     * events in namespace default}.
     */
    public static String resource(String endpointPath) {
        String[] parts = endpointPath.split("/");
        if (parts.length < 2) return endpointPath;
        boolean core = parts[0].matches("v\\d+(alpha\\d+|beta\\d+)?");
        String group = core ? "" : parts[0];
        int i = core ? 1 : 2;
        String namespace = null;
        if (parts.length > i + 2 && parts[i].equals("namespaces")) {
            namespace = parts[i + 1];
            i += 2;
        }
        if (parts.length <= i) return endpointPath;
        String name = parts[i] + (group.isEmpty() ? "" : "." + group);
        return namespace == null ? name : name + " in namespace " + namespace;
    }
}
