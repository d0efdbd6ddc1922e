package io.upshift.testkit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * An API server in this JVM for tests, benchmarks and the demo: fabric8's CRUD mock over real HTTP,
 * made stricter by {@link ApiServerDispatcher}. Clients name themselves ({@link #client(String)}),
 * so that the request log can tell whose requests they were.
 *
 * <p>It authenticates and authorizes as kube-apiserver does: each client carries a bearer token the
 * server issued. {@link #client()} and the clients of {@link #client(String)} are the
 * administrator's (group {@code system:masters}, allowed everything), for whoever sets up and
 * inspects the world; a controller's client acts as its ServiceAccount ({@link #client(String,
 * ServiceAccount)}) and may do what the RBAC stored in the server allows it: deploy/'s, once {@link
 * #installRbac()} installed it, so that a request deploy/rbac.yaml does not allow is refused with
 * the 403 a real server gives ({@link ApiServerDispatcher#accessRefusals()}).
 */
public final class EmbeddedApiServer implements ApiServer {
    /** The administrator, as kubeadm's admin kubeconfig names it. */
    static final User ADMIN =
            new User("kubernetes-admin", List.of(User.MASTERS, User.AUTHENTICATED));

    private static final String BOOTSTRAP = "/io/upshift/testkit/bootstrap-rbac.yaml";

    private static final String NAMESPACES = "/io/upshift/testkit/bootstrap-namespaces.yaml";

    private final ApiServerDispatcher dispatcher = new ApiServerDispatcher();
    private final MockWebServer web;
    private final KubernetesMockServer server;
    private final Config base;
    private final KubernetesClient client;
    private final Thread drain;

    public EmbeddedApiServer() {
        MockServerLog.quiet();
        // HTTPS, as kube-apiserver serves: kubectl and oc send a kubeconfig's credentials over TLS
        // only
        web = new MockWebServer();
        server = new KubernetesMockServer(new Context(), web, new HashMap<>(), dispatcher, true);
        server.init();
        // fabric8's mock keeps every request with its body for takeRequest(), which nothing here
        // calls (the request
        // log records what tests need): a server that lives long or takes many objects would hold
        // them all
        drain =
                new Thread(
                        () -> {
                            try {
                                while (true) server.takeRequest();
                            } catch (InterruptedException e) {
                                Thread.currentThread().interrupt();
                            }
                        },
                        "embedded-api-server-drain");
        drain.setDaemon(true);
        drain.start();
        try (KubernetesClient first = server.createClient()) {
            base = first.getConfiguration();
        }
        Manifests.read(BOOTSTRAP).forEach(dispatcher::store);
        Manifests.read(NAMESPACES).forEach(dispatcher::store);
        client = client("upshift-test");
    }

    /**
     * The administrator's client, for whoever sets up and inspects the world (tests, the
     * simulation).
     */
    @Override
    public KubernetesClient client() {
        return client;
    }

    /** A new administrator's client whose requests carry {@code userAgent}. */
    @Override
    public KubernetesClient client(String userAgent) {
        return new KubernetesClientBuilder().withConfig(config(userAgent)).build();
    }

    /**
     * The configuration of an administrator's client of this server whose requests carry {@code
     * userAgent}.
     */
    @Override
    public Config config(String userAgent) {
        return config(userAgent, token(ADMIN));
    }

    /**
     * A new client acting as {@code account}, whose requests carry {@code userAgent}: a
     * controller's, as deploy/ runs it.
     */
    @Override
    public KubernetesClient client(String userAgent, ServiceAccount account) {
        return new KubernetesClientBuilder().withConfig(config(userAgent, account)).build();
    }

    /**
     * The configuration of a client acting as {@code account} whose requests carry {@code
     * userAgent}.
     */
    @Override
    public Config config(String userAgent, ServiceAccount account) {
        return config(userAgent, token(account));
    }

    private Config config(String userAgent, String token) {
        return new ConfigBuilder(base).withUserAgent(userAgent).withOauthToken(token).build();
    }

    /** The bearer token of {@code account}, as its pod would have it mounted. */
    @Override
    public String token(ServiceAccount account) {
        return token(account.user());
    }

    /** The administrator's bearer token, for raw HTTP requests. */
    @Override
    public String adminToken() {
        return token(ADMIN);
    }

    private String token(User user) {
        return dispatcher.tokens().issue(user);
    }

    /**
     * A kubeconfig for any client of this server (kubectl, oc, upshift) acting as the
     * administrator: one cluster, one context, the administrator's token.
     */
    @Override
    public String kubeconfig() {
        return kubeconfig(adminToken());
    }

    /**
     * A kubeconfig acting as {@code account}, as its pod's mounted token would: for a controller
     * run as a process.
     */
    @Override
    public String kubeconfig(ServiceAccount account) {
        return kubeconfig(token(account));
    }

    private String kubeconfig(String token) {
        return "apiVersion: v1\n"
                + "kind: Config\n"
                + "clusters:\n"
                + "- name: upshift-embedded\n"
                + "  cluster: {server: '"
                + url()
                + "', insecure-skip-tls-verify: true}\n"
                + "users:\n"
                + "- name: upshift-embedded\n"
                + "  user: {token: '"
                + token
                + "'}\n"
                + "contexts:\n"
                + "- name: upshift-embedded\n"
                + "  context: {cluster: upshift-embedded, user: upshift-embedded}\n"
                + "current-context: upshift-embedded\n";
    }

    /**
     * Installs deploy/'s namespaces and RBAC ({@code deploy/namespace.yaml}, {@code
     * deploy/rbac.yaml}, {@code deploy/rehearse-rbac.yaml}, read from the classpath, where the
     * build copies them from deploy/): the ServiceAccounts of the controllers and the node agent,
     * and exactly the rules deploy/ grants them, as {@code kubectl apply -k deploy/} installs them.
     */
    @Override
    public EmbeddedApiServer installRbac() {
        Manifests.read("/deploy/namespace.yaml").forEach(dispatcher::store);
        Manifests.read("/deploy/rbac.yaml").forEach(dispatcher::store);
        Manifests.read("/deploy/rehearse-rbac.yaml").forEach(dispatcher::store);
        return this;
    }

    @Override
    public String url() {
        return client.getMasterUrl().toString();
    }

    /**
     * An HTTP client for raw requests to {@link #url()} that trusts this server's self-signed
     * certificate (and no other); requests still need a token ({@link #adminToken()}, {@link
     * #token(ServiceAccount)}).
     */
    @Override
    public HttpClient httpClient() {
        try (InputStream pem =
                Files.newInputStream(Path.of(web.getSelfSignedCertificate().certificatePath()))) {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            trusted.setCertificateEntry(
                    "embedded", CertificateFactory.getInstance("X.509").generateCertificate(pem));
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            return HttpClient.newBuilder().sslContext(tls).build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(
                    "cannot trust the embedded API server's certificate: " + e.getMessage(), e);
        }
    }

    /**
     * Installs CRDs by name ({@link Crds}: deploy/crds, or the stand-ins of OpenShift kinds), so
     * that the server treats their kinds as kube-apiserver would, e.g. keeps a status subresource
     * apart.
     */
    @Override
    public EmbeddedApiServer installCrds(String... names) {
        for (String name : names)
            client.apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .load(
                            new ByteArrayInputStream(
                                    Crds.manifest(name).getBytes(StandardCharsets.UTF_8)))
                    .create();
        return this;
    }

    /**
     * From now on, answers as kube-apiserver also where the demo's cluster relies on the mock's
     * kindness: a kind of a group Kubernetes does not build in is served only while its CRD is
     * installed, objects are created only in namespaces that exist, and custom resources (and their
     * status) are validated against their CRDs' schemas on every write. What the API-semantics
     * tests get when no real server is there ({@link ApiServers}).
     */
    public EmbeddedApiServer strict() {
        dispatcher
                .installedKindsOnly()
                .namespaceLifecycle()
                .validateObjectsAgainstCrds()
                .validateStatusAgainstCrds();
        return this;
    }

    public ApiServerDispatcher dispatcher() {
        return dispatcher;
    }

    @Override
    public RequestLog requests() {
        return dispatcher.requests();
    }

    @Override
    public List<String> accessRefusals() {
        return dispatcher.accessRefusals();
    }

    /**
     * The writes refused for changing an immutable field, and, once {@link
     * ApiServerDispatcher#validateStatusAgainstCrds()} asked for it, the status writes a CRD's
     * schema refused.
     */
    @Override
    public List<String> invalidWrites() {
        List<String> all = new ArrayList<>(dispatcher.immutableRefusals());
        all.addAll(dispatcher.schemaRefusals());
        return all;
    }

    @Override
    public boolean real() {
        return false;
    }

    @Override
    public String description() {
        return "the embedded API server";
    }

    @Override
    public void close() {
        drain.interrupt();
        client.close();
        server.destroy();
    }
}
