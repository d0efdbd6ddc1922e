package io.upshift.testkit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.net.http.HttpClient;
import java.util.List;

/**
 * An API server a test talks to, whichever it is: a real kube-apiserver ({@link RealApiServer}, on
 * a control plane this JVM started from the Kubernetes binaries) or the embedded one ({@link
 * EmbeddedApiServer}, fabric8's mock made strict). A test asks {@link ApiServers#start} for one and
 * gets the real one when the binaries are there.
 *
 * <p>Both authenticate and authorize for real: {@link #client()} is the administrator's ({@code
 * system:masters}); a controller's client acts as its ServiceAccount ({@link #client(String,
 * ServiceAccount)}) with exactly the rules {@link #installRbac()} installed from deploy/. Requests
 * are recorded with the client's User-Agent ({@link #requests()}).
 */
public interface ApiServer extends AutoCloseable {

    /** The administrator's client, for whoever sets up and inspects the world. */
    KubernetesClient client();

    /** A new administrator's client whose requests carry {@code userAgent}. */
    default KubernetesClient client(String userAgent) {
        return new KubernetesClientBuilder().withConfig(config(userAgent)).build();
    }

    /** The configuration of an administrator's client whose requests carry {@code userAgent}. */
    Config config(String userAgent);

    /** A new client acting as {@code account}, whose requests carry {@code userAgent}. */
    default KubernetesClient client(String userAgent, ServiceAccount account) {
        return new KubernetesClientBuilder().withConfig(config(userAgent, account)).build();
    }

    /** The configuration of a client acting as {@code account} whose requests carry it. */
    Config config(String userAgent, ServiceAccount account);

    /** The bearer token of {@code account}, as its pod would have it mounted. */
    String token(ServiceAccount account);

    /** The administrator's bearer token, for raw HTTP requests. */
    String adminToken();

    /** A kubeconfig acting as the administrator, for kubectl, oc or upshift. */
    String kubeconfig();

    /** A kubeconfig acting as {@code account}, as its pod's mounted token would. */
    String kubeconfig(ServiceAccount account);

    /**
     * Installs deploy/'s namespaces and RBAC ({@code namespace.yaml}, {@code rbac.yaml}, {@code
     * rehearse-rbac.yaml}) as {@code kubectl apply -k deploy/} would.
     */
    ApiServer installRbac();

    /**
     * Installs the CRDs of deploy/crds named (e.g. {@code clusterversions.config.openshift.io}),
     * and returns once each is Established.
     */
    ApiServer installCrds(String... names);

    /** The server's URL ({@code https://127.0.0.1:<port>}). */
    String url();

    /** An HTTP client for raw requests to {@link #url()} that trusts this server alone. */
    HttpClient httpClient();

    /** Every request this test's clients sent, with who sent it, oldest first. */
    RequestLog requests();

    /**
     * The messages of the requests refused so far as unauthenticated (401) or forbidden (403),
     * oldest first, in the server's words.
     */
    List<String> accessRefusals();

    /**
     * The messages of the writes refused so far as invalid (422: an immutable field changed, a
     * value the CRD's schema rejects), oldest first, in the server's words.
     */
    List<String> invalidWrites();

    /** True for a real kube-apiserver. */
    boolean real();

    /**
     * What this server is, for a failure message: "kube-apiserver v1.32.13" or "the embedded API
     * server".
     */
    String description();

    @Override
    void close();
}
