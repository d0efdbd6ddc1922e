package io.upshift.testkit;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Random;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A network between the controller and the API server that fails a share of requests: HTTP 500, HTTP 409, or no
 * answer before the client gives up. The rest are passed through unchanged.
 */
public final class FlakyApi implements AutoCloseable {

    private final HttpServer server;
    private final HttpClient http = HttpClient.newHttpClient();
    private final Random random;
    private final double share;
    public final AtomicInteger requests = new AtomicInteger(), failed = new AtomicInteger();
    public volatile String rejectWritesTo; // writes to paths containing this are refused as invalid (HTTP 422)

    public FlakyApi(URI target, double share, long seed) throws IOException {
        this.random = new Random(seed);
        this.share = share;
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", x -> handle(x, target));
        server.start();
    }

    public String url() {
        return "http://127.0.0.1:" + server.getAddress().getPort() + "/";
    }

    private void handle(HttpExchange x, URI target) throws IOException {
        requests.incrementAndGet();
        double roll;
        synchronized (random) {
            roll = random.nextDouble();
        }
        try {
            String reject = rejectWritesTo;
            if (reject != null && x.getRequestURI().getPath().contains(reject) && !x.getRequestMethod().equals("GET")) {
                reply(x, 422, ("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Invalid\",\"code\":422,"
                        + "\"message\":\"Deployment.apps \\\"etcd-operator\\\" is invalid: spec.template.spec.containers[0].image: Required value\"}").getBytes(), "application/json");
                return;
            }
            if (roll < share / 3) {
                failed.incrementAndGet();
                reply(x, 500, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\"injected failure\",\"code\":500}".getBytes(), "application/json");
                return;
            }
            if (roll < 2 * share / 3) {
                failed.incrementAndGet();
                reply(x, 409, "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\"Conflict\",\"message\":\"injected conflict\",\"code\":409}".getBytes(), "application/json");
                return;
            }
            if (roll < share) {
                failed.incrementAndGet();
                Thread.sleep(3000); // longer than the client waits
                x.close();
                return;
            }
            byte[] body = x.getRequestBody().readAllBytes();
            HttpRequest.Builder b = HttpRequest.newBuilder(target.resolve(x.getRequestURI().toString().substring(1)))
                    .method(x.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody() : HttpRequest.BodyPublishers.ofByteArray(body));
            String type = x.getRequestHeaders().getFirst("Content-Type");
            if (type != null) b.header("Content-Type", type);
            // streamed, so that watches (which never end) pass through as well
            HttpResponse<java.io.InputStream> r = http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
            x.getResponseHeaders().set("Content-Type", r.headers().firstValue("Content-Type").orElse("application/json"));
            x.sendResponseHeaders(r.statusCode(), 0);
            try (java.io.InputStream in = r.body(); java.io.OutputStream out = x.getResponseBody()) {
                byte[] buf = new byte[8192];
                for (int n; (n = in.read(buf)) > 0; ) {
                    out.write(buf, 0, n);
                    out.flush();
                }
            } catch (IOException closed) {
                // the client went away (a watch it stopped); nothing to pass on
            }
            x.close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            x.close();
        }
    }

    private static void reply(HttpExchange x, int status, byte[] body, String type) throws IOException {
        x.getResponseHeaders().set("Content-Type", type);
        x.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) x.getResponseBody().write(body);
        x.close();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
