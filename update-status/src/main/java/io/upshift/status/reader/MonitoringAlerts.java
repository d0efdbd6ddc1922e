package io.upshift.status.reader;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.upshift.runtime.kube.ApiErrors;
import io.upshift.runtime.tls.CaBundle;
import io.upshift.status.model.Alert;
import io.upshift.status.snapshot.AlertsFile;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import javax.net.ssl.SSLContext;

/**
 * The cluster's firing alerts, found and read as {@code oc adm upgrade status} and {@code oc adm
 * upgrade recommend} find and read them (openshift/oc pkg/cli/admin/inspectalerts): the Route
 * {@code openshift-monitoring/thanos-querier}, each host of its {@code status.ingress} in turn,
 * {@code https://HOST/api/v1/alerts}, with the user's own bearer token and the TLS trust of the
 * user's kubeconfig (its certificate authorities, or none checked where it says {@code
 * insecure-skip-tls-verify}). A session without a bearer token is not tried, as oc does not try it:
 * the platform's Thanos takes no other authentication. What went wrong is said in oc's words, which
 * {@code upshift status} and {@code upshift recommend} print where oc prints them.
 */
public final class MonitoringAlerts {

    public static final String NAMESPACE = "openshift-monitoring";
    public static final String ROUTE = "thanos-querier";
    static final String PATH = "/api/v1/alerts";

    private static final ResourceDefinitionContext ROUTES =
            new ResourceDefinitionContext.Builder()
                    .withGroup("route.openshift.io")
                    .withVersion("v1")
                    .withKind("Route")
                    .withPlural("routes")
                    .withNamespaced(true)
                    .build();

    private MonitoringAlerts() {}

    /** What was read: the alerts, or why none were. */
    public sealed interface Outcome {
        record Read(List<Alert> alerts) implements Outcome {}

        /** Not read; {@code why} in oc's words. */
        record NotRead(String why) implements Outcome {}
    }

    /** The cluster's alerts, through its thanos-querier Route, as {@code client}'s user. */
    public static Outcome read(KubernetesClient client) {
        Config config = client.getConfiguration();
        String token = token(config);
        if (token == null || token.isEmpty())
            return new Outcome.NotRead("no token is currently in use for this session");
        List<String> hosts;
        try {
            hosts = hosts(client);
        } catch (KubernetesClientException e) {
            return failed(message(e));
        }
        if (hosts == null)
            return failed(
                    !servesRoutes(client)
                            ? "the server could not find the requested resource (get "
                                    + ROUTES.getPlural()
                                    + "."
                                    + ROUTES.getGroup()
                                    + " "
                                    + ROUTE
                                    + ")"
                            : ROUTES.getPlural()
                                    + "."
                                    + ROUTES.getGroup()
                                    + " \""
                                    + ROUTE
                                    + "\" not found");
        List<String> errors = new ArrayList<>();
        for (String host : hosts) {
            URI url;
            try {
                url = new URI("https://" + host + PATH);
                if (url.getHost() == null) throw new URISyntaxException(host, "no host");
            } catch (URISyntaxException e) {
                errors.add(host + "->parse \"https://" + host + PATH + "\": invalid host");
                continue;
            }
            try {
                AlertsClient.Answer answer =
                        new AlertsClient(url, AlertsClient.TIMEOUT, tls(config, url), token).get();
                if (answer.status() != 200) {
                    errors.add(host + "->GET status code=" + answer.status());
                    continue;
                }
                return new Outcome.Read(AlertsFile.parse(url.toString(), answer.body()));
            } catch (IOException | RuntimeException e) {
                errors.add(host + "->Get \"" + url + "\": " + describe(e));
            }
        }
        return failed(
                errors.size() == 1
                        ? "unable to get "
                                + PATH
                                + " from URI in the "
                                + NAMESPACE
                                + "/"
                                + ROUTE
                                + " Route: "
                                + errors.get(0)
                        : "unable to get "
                                + PATH
                                + " from any of "
                                + errors.size()
                                + " URIs in the "
                                + NAMESPACE
                                + "/"
                                + ROUTE
                                + " Route: ["
                                + String.join(", ", errors)
                                + "]");
    }

    /**
     * The alerts at {@code url}, given in place of the cluster's Route ({@code --alerts-url}): read
     * as given, with no credentials of the user's.
     */
    public static Outcome read(String url) {
        try {
            return new Outcome.Read(new AlertsClient(url).fetch());
        } catch (IOException | RuntimeException e) {
            return new Outcome.NotRead(describe(e));
        }
    }

    private static Outcome failed(String why) {
        return new Outcome.NotRead("failed to get alerts from Thanos: " + why);
    }

    /**
     * Whether the API server serves the Route kind's group at all (a plain Kubernetes does not).
     */
    private static boolean servesRoutes(KubernetesClient client) {
        try {
            var groups = client.getApiGroups();
            return groups != null
                    && groups.getGroups() != null
                    && groups.getGroups().stream()
                            .anyMatch(g -> ROUTES.getGroup().equals(g.getName()));
        } catch (KubernetesClientException e) {
            return true; // unknown: say the Route is not found, as for a cluster that has the kind
        }
    }

    /** The Route's ingress hosts, in order; null when there is no such Route. */
    @SuppressWarnings("unchecked")
    private static List<String> hosts(KubernetesClient client) {
        GenericKubernetesResource route =
                client.genericKubernetesResources(ROUTES)
                        .inNamespace(NAMESPACE)
                        .withName(ROUTE)
                        .get();
        if (route == null) return null;
        List<String> hosts = new ArrayList<>();
        Object status = route.getAdditionalProperties().get("status");
        if (status instanceof Map<?, ?> s && s.get("ingress") instanceof List<?> ingress)
            for (Object i : ingress)
                if (i instanceof Map<?, ?> m && m.get("host") instanceof String h) hosts.add(h);
        return hosts;
    }

    /** The bearer token the client's requests carry, as its configuration gives it. */
    private static String token(Config config) {
        if (config.getOauthTokenProvider() != null)
            return config.getOauthTokenProvider().getToken();
        if (config.getOauthToken() != null && !config.getOauthToken().isEmpty())
            return config.getOauthToken();
        return config.getAutoOAuthToken();
    }

    /**
     * The kubeconfig's trust, as Go's {@code rest.TransportFor} makes it: none checked with {@code
     * insecure-skip-tls-verify}, else its certificate authorities alone (the system's when it names
     * none), the server's certificate checked against the URL's host.
     */
    static SSLContext tls(Config config, URI url) throws IOException {
        if (Boolean.TRUE.equals(config.getTrustCerts())) return CaBundle.unverified();
        String pem = "";
        if (config.getCaCertData() != null && !config.getCaCertData().isEmpty())
            pem =
                    new String(
                            Base64.getMimeDecoder().decode(config.getCaCertData()),
                            StandardCharsets.UTF_8);
        else if (config.getCaCertFile() != null && !config.getCaCertFile().isEmpty())
            pem = Files.readString(Path.of(config.getCaCertFile()));
        return CaBundle.parse(pem).context(url.getHost());
    }

    /** The API server's word for a refused read. */
    private static String message(KubernetesClientException e) {
        if (e.getStatus() != null
                && e.getStatus().getMessage() != null
                && !e.getStatus().getMessage().isEmpty()) return e.getStatus().getMessage();
        return ApiErrors.describe(e);
    }

    private static String describe(Exception e) {
        Throwable t = e;
        // the JDK's HTTP client wraps what went wrong: name the cause
        while (t.getCause() != null && (t.getMessage() == null || t.getMessage().isEmpty()))
            t = t.getCause();
        String m = t.getMessage();
        return m == null || m.isEmpty() ? t.getClass().getSimpleName() : m;
    }
}
