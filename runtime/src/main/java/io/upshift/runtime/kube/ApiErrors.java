package io.upshift.runtime.kube;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

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
        String unanswered = unanswered(t);
        if (unanswered != null) return unanswered;
        String innermost = null;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) innermost = c.getMessage();
        }
        return innermost == null ? t.getClass().getSimpleName() : firstLine(innermost);
    }

    private static final Pattern REFUSED_AT = Pattern.compile("Connection refused: /?(\\S+)");

    /**
     * A request that got no answer, in words that name the address and what happened: "cannot
     * connect to 127.0.0.1:6443: connection refused", "unknown host api.example"; null for any
     * other failure.
     */
    private static String unanswered(Throwable t) {
        String address = null;
        Throwable refused = null, unknown = null, tls = null, timeout = null;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            Matcher m = REFUSED_AT.matcher(String.valueOf(c.getMessage()));
            if (address == null && m.find()) address = m.group(1);
            if (c instanceof ConnectException) refused = c;
            if (c instanceof UnknownHostException) unknown = c;
            if (c instanceof SSLException && tls == null) tls = c;
            if (c instanceof SocketTimeoutException
                    || c instanceof HttpTimeoutException
                    || c instanceof TimeoutException) timeout = c;
        }
        if (refused != null)
            return "cannot connect to "
                    + (address != null ? address : "the API server")
                    + ": connection refused";
        if (unknown != null) return "unknown host " + unknown.getMessage();
        if (timeout != null)
            return "no answer in time (" + firstLine(String.valueOf(timeout.getMessage())) + ")";
        if (tls != null) {
            Throwable root = tls;
            while (root.getCause() != null && root.getCause() != root) root = root.getCause();
            return "TLS handshake failed: " + firstLine(String.valueOf(root.getMessage()));
        }
        return null;
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
