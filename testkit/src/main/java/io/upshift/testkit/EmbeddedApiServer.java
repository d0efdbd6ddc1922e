package io.upshift.testkit;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.ConfigBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import java.util.HashMap;

/**
 * An API server in this JVM for tests, benchmarks and the demo: fabric8's CRUD mock over real HTTP, made stricter by
 * {@link ApiServerDispatcher}. Clients name themselves ({@link #client(String)}), so that the request log can tell
 * whose requests they were.
 */
public final class EmbeddedApiServer implements AutoCloseable {
    private final ApiServerDispatcher dispatcher = new ApiServerDispatcher();
    private final KubernetesMockServer server;
    private final Config base;
    private final KubernetesClient client;
    private final Thread drain;

    public EmbeddedApiServer() {
        MockServerLog.quiet();
        server = new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init();
        // fabric8's mock keeps every request with its body for takeRequest(), which nothing here calls (the request
        // log records what tests need): a server that lives long or takes many objects would hold them all
        drain = new Thread(() -> {
            try {
                while (true) server.takeRequest();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "embedded-api-server-drain");
        drain.setDaemon(true);
        drain.start();
        try (KubernetesClient first = server.createClient()) {
            base = first.getConfiguration();
        }
        client = client("upshift-test");
    }

    /** The client of whoever sets up and inspects the world (tests, the simulation). */
    public KubernetesClient client() {
        return client;
    }

    /** A new client whose requests carry {@code userAgent}. */
    public KubernetesClient client(String userAgent) {
        return new KubernetesClientBuilder().withConfig(config(userAgent)).build();
    }

    /** The configuration of a client of this server whose requests carry {@code userAgent}. */
    public Config config(String userAgent) {
        return new ConfigBuilder(base).withUserAgent(userAgent).build();
    }

    /**
     * A kubeconfig for any client of this server (kubectl, oc, upshift): one cluster, one context, no credentials
     * (the server asks none).
     */
    public String kubeconfig() {
        return "apiVersion: v1\nkind: Config\nclusters:\n- name: upshift-embedded\n  cluster: {server: '" + url()
                + "'}\nusers:\n- name: upshift-embedded\n  user: {}\ncontexts:\n- name: upshift-embedded\n"
                + "  context: {cluster: upshift-embedded, user: upshift-embedded}\ncurrent-context: upshift-embedded\n";
    }

    public String url() {
        return client.getMasterUrl().toString();
    }

    /**
     * Installs CRDs shipped on the classpath under {@code crds/} (as {@code deploy/crds} holds them), so that the
     * server treats their kinds as kube-apiserver would, e.g. keeps a status subresource apart.
     */
    public EmbeddedApiServer installCrds(String... names) {
        for (String name : names) {
            try (java.io.InputStream in = EmbeddedApiServer.class.getResourceAsStream("/crds/" + name + ".yaml")) {
                if (in == null) throw new IllegalArgumentException("no CRD " + name + " on the classpath");
                client.apiextensions().v1().customResourceDefinitions().load(in).create();
            } catch (java.io.IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        return this;
    }

    public ApiServerDispatcher dispatcher() {
        return dispatcher;
    }

    public RequestLog requests() {
        return dispatcher.requests();
    }

    @Override
    public void close() {
        drain.interrupt();
        client.close();
        server.destroy();
    }
}
