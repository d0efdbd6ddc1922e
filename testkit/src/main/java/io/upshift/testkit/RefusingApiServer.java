package io.upshift.testkit;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.Dispatcher;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * fabric8's CRUD mock server that answers the requests of some paths as a real API server answers a
 * kind it does not serve (404) or an account may not read (403), and records every request: for the
 * tests of optional kinds.
 */
public final class RefusingApiServer implements AutoCloseable {
    private final Map<String, Integer> refused = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final KubernetesMockServer server;
    public final KubernetesClient client;

    public RefusingApiServer() {
        MockServerLog.quiet();
        KubernetesCrudDispatcher crud = new KubernetesCrudDispatcher();
        Dispatcher dispatcher =
                new Dispatcher() {
                    @Override
                    public MockResponse dispatch(RecordedRequest request) {
                        String path = request.getPath();
                        requests.add(request.getMethod() + " " + path);
                        for (Map.Entry<String, Integer> r : refused.entrySet()) {
                            if (path.startsWith(r.getKey() + "?")
                                    || path.startsWith(r.getKey() + "/")
                                    || path.equals(r.getKey())) return status(r.getValue(), path);
                        }
                        return crud.dispatch(request);
                    }
                };
        server =
                new KubernetesMockServer(
                        new Context(), new MockWebServer(), new HashMap<>(), dispatcher, false);
        server.init();
        client = server.createClient();
    }

    /**
     * Requests under {@code path} (e.g. {@code /apis/config.openshift.io/v1/featuregates}) are
     * answered {@code code}: 403 or 404.
     */
    public RefusingApiServer refuse(String path, int code) {
        refused.put(path, code);
        return this;
    }

    /** Requests under {@code path} are answered again. */
    public RefusingApiServer serve(String path) {
        refused.remove(path);
        return this;
    }

    /** The requests so far (method and path) whose path starts with {@code prefix}. */
    public List<String> requests(String prefix) {
        return requests.stream()
                .filter(r -> r.substring(r.indexOf(' ') + 1).startsWith(prefix))
                .toList();
    }

    private static MockResponse status(int code, String path) {
        String resource = path.split("\\?")[0].replaceAll(".*/", "");
        String message =
                code == 403
                        ? resource
                                + " is forbidden: User \"system:serviceaccount:upshift:upshift\""
                                + " cannot list resource \""
                                + resource
                                + "\" at the cluster scope"
                        : "the server could not find the requested resource";
        return new MockResponse()
                .setResponseCode(code)
                .setHeader("Content-Type", "application/json")
                .setBody(
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\""
                                + message.replace("\"", "\\\"")
                                + "\",\"reason\":\""
                                + (code == 403 ? "Forbidden" : "NotFound")
                                + "\",\"code\":"
                                + code
                                + "}");
    }

    @Override
    public void close() {
        client.close();
        server.destroy();
    }
}
