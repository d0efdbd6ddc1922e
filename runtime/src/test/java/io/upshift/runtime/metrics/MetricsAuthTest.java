package io.upshift.runtime.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.testkit.AccessReviews;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.ServiceAccount;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --metrics-auth token}: bearer tokens reviewed by the API server, as kube-rbac-proxy
 * reviews them.
 */
@Tag("e2e")
class MetricsAuthTest {
    static final String PROMETHEUS = "system:serviceaccount:monitoring:prometheus";

    final EmbeddedApiServer api = new EmbeddedApiServer().installRbac();
    final AccessReviews reviews =
            api.dispatcher()
                    .accessReviews()
                    .token("prometheus-token", PROMETHEUS)
                    .allow(PROMETHEUS, "get", "/metrics")
                    .token("alice-token", "alice")
                    .allow("alice", "get", "/healthz");
    final AtomicReference<Instant> now =
            new AtomicReference<>(Instant.parse("2026-11-23T10:00:00Z"));
    MetricsServer server;

    @BeforeEach
    void start() throws Exception {
        server =
                MetricsServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        () -> "up 1\n",
                        new TokenAccess(
                                api.client("upshift-operator", ServiceAccount.UPSHIFT), now::get),
                        null);
    }

    @AfterEach
    void stop() {
        server.close();
        api.close();
    }

    @Test
    void aScrapeWithoutAValidTokenIsUnauthorized() throws Exception {
        HttpResponse<String> none = get("/metrics", null);
        assertThat(none.statusCode()).isEqualTo(401);
        assertThat(none.headers().firstValue("WWW-Authenticate")).hasValue("Bearer");
        assertThat(get("/metrics", "Basic YWxpY2U6c2VjcmV0").statusCode()).isEqualTo(401);
        assertThat(reviews.tokenReviews()).isZero(); // nothing to review

        HttpResponse<String> unknown = get("/metrics", "Bearer nobodys-token");
        assertThat(unknown.statusCode()).isEqualTo(401);
        assertThat(unknown.body()).contains("the token is not valid");
        assertThat(reviews.tokenReviews()).isEqualTo(1);
        assertThat(reviews.accessReviews()).isZero();
    }

    @Test
    void aUserNotAllowedToGetMetricsIsForbidden() throws Exception {
        HttpResponse<String> alice = get("/metrics", "Bearer alice-token");
        assertThat(alice.statusCode()).isEqualTo(403);
        assertThat(alice.body()).isEqualTo("alice may not get /metrics (no RBAC policy matched)\n");
        // refusals are not remembered: alice granted the URL is let in at once
        reviews.allow("alice", "get", "/metrics");
        assertThat(get("/metrics", "Bearer alice-token").statusCode()).isEqualTo(200);
    }

    @Test
    void anAllowedUserScrapesAndTheGrantIsRememberedBriefly() throws Exception {
        HttpResponse<String> ok = get("/metrics", "Bearer prometheus-token");
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.body()).isEqualTo("up 1\n");
        assertThat(ok.headers().firstValue("Content-Type"))
                .hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(reviews.tokenReviews()).isEqualTo(1);
        assertThat(reviews.accessReviews()).isEqualTo(1);

        now.set(now.get().plus(Duration.ofSeconds(30)));
        assertThat(get("/metrics", "Bearer prometheus-token").statusCode()).isEqualTo(200);
        assertThat(reviews.tokenReviews())
                .isEqualTo(1); // a scrape 30 s later costs the API server nothing
        assertThat(reviews.accessReviews()).isEqualTo(1);

        now.set(now.get().plus(TokenAccess.REMEMBER));
        assertThat(get("/metrics", "Bearer prometheus-token").statusCode()).isEqualTo(200);
        assertThat(reviews.tokenReviews()).isEqualTo(2); // reviewed again once the grant is old
        assertThat(reviews.accessReviews()).isEqualTo(2);
    }

    @Test
    void onlyMetricsIsServed() throws Exception {
        assertThat(get("/other", "Bearer prometheus-token").statusCode()).isEqualTo(404);
        assertThat(reviews.tokenReviews()).isZero();
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(10));
        if (authorization != null) request.header("Authorization", authorization);
        return HttpClient.newHttpClient()
                .send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
