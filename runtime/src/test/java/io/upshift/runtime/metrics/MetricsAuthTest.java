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
import java.security.KeyStore;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicReference;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@code --metrics-auth token}: bearer tokens reviewed by the API server, as kube-rbac-proxy
 * reviews them, over HTTPS (a self-signed certificate, which the client here pins); what a flood of
 * tokens costs the API server is counted by the embedded API server, which answers the reviews.
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
    ServingCertificate certificate;
    HttpClient http;

    @BeforeEach
    void start() throws Exception {
        certificate = ServingCertificate.selfSigned(List.of("127.0.0.1"), now.get());
        server =
                MetricsServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        () -> "up 1\n",
                        new TokenAccess(
                                api.client("upshift-operator", ServiceAccount.UPSHIFT), now::get),
                        certificate);
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("serving", certificate.certificate());
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        http = HttpClient.newBuilder().sslContext(context).build();
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

    /**
     * A flood of distinct unknown tokens from one client: at most the per-source budget (10) of
     * TokenReviews a minute, whatever the number of requests; the rest are answered 429 with
     * Retry-After at no cost to the API server. The same bad token again is not reviewed again (the
     * negative cache), and a scraper whose grant is remembered keeps scraping through the flood.
     */
    @Test
    void aFloodOfUnknownTokensCostsABoundedNumberOfTokenReviewsAMinute() throws Exception {
        // prometheus' grant, remembered: one review of the ten its address may ask a minute
        assertThat(get("/metrics", "Bearer prometheus-token").statusCode()).isEqualTo(200);
        assertThat(reviews.tokenReviews()).isEqualTo(1);
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int i = 0; i < 500; i++) {
            HttpResponse<String> r = get("/metrics", "Bearer flood-" + i);
            statuses.merge(r.statusCode(), 1, Integer::sum);
            if (r.statusCode() == 429) {
                assertThat(r.headers().firstValue("Retry-After")).isPresent();
                assertThat(r.body())
                        .startsWith("too many token reviews from 127.0.0.1: at most 10 a minute");
            }
            if (i % 100 == 0) {
                // the remembered grant is not held back by the flood from the same address
                assertThat(get("/metrics", "Bearer prometheus-token").statusCode()).isEqualTo(200);
            }
        }
        assertThat(reviews.tokenReviews()).isEqualTo(10);
        assertThat(statuses).containsEntry(401, 9).containsEntry(429, 491);

        // a minute on (the injected clock), the budget is whole again: ten more at most
        now.set(now.get().plus(Duration.ofMinutes(1)));
        for (int i = 0; i < 100; i++) get("/metrics", "Bearer flood-again-" + i);
        assertThat(reviews.tokenReviews()).isEqualTo(20);

        // one bad token, again and again: reviewed once, remembered as bad
        now.set(now.get().plus(Duration.ofMinutes(1)));
        for (int i = 0; i < 100; i++)
            assertThat(get("/metrics", "Bearer the-same-bad-token").statusCode()).isEqualTo(401);
        assertThat(reviews.tokenReviews()).isEqualTo(21);
        // and reviewed again once the refusal is old
        now.set(now.get().plus(TokenAccess.REMEMBER_INVALID));
        assertThat(get("/metrics", "Bearer the-same-bad-token").statusCode()).isEqualTo(401);
        assertThat(reviews.tokenReviews()).isEqualTo(22);
        assertThat(reviews.accessReviews()).isEqualTo(1); // prometheus' only
    }

    /**
     * The budget is per client address and for all together: many addresses each within theirs are
     * still held to the total (reviews counted by the API server).
     */
    @Test
    void reviewsAreBudgetedPerAddressAndInAll() throws Exception {
        TokenAccess access =
                new TokenAccess(
                        api.client("upshift-operator", ServiceAccount.UPSHIFT),
                        now::get,
                        new TokenAccess.Budget(3, 10));
        Map<Integer, Integer> statuses = new TreeMap<>();
        for (int source = 1; source <= 8; source++) {
            InetAddress from = InetAddress.getByName("10.0.0." + source);
            for (int i = 0; i < 5; i++) {
                ScrapeAccess.Verdict v =
                        access.check("Bearer t-" + source + "-" + i, "get", "/metrics", from);
                statuses.merge(v.status(), 1, Integer::sum);
            }
        }
        assertThat(reviews.tokenReviews()).isEqualTo(10); // 3 + 3 + 3 + 1, then none
        assertThat(statuses).containsEntry(401, 10).containsEntry(429, 30);
        ScrapeAccess.Verdict held =
                access.check("Bearer t-x", "get", "/metrics", InetAddress.getByName("10.0.0.9"));
        assertThat(held.status()).isEqualTo(429);
        assertThat(held.message()).startsWith("too many token reviews in all: at most 10 a minute");
        assertThat(held.retryAfter()).isBetween(1L, 6L);
        // a known token is reviewed once the budget refills
        now.set(now.get().plus(Duration.ofSeconds(30)));
        assertThat(
                        access.check(
                                        "Bearer prometheus-token",
                                        "get",
                                        "/metrics",
                                        InetAddress.getByName("10.0.0.9"))
                                .status())
                .isEqualTo(200);
    }

    private HttpResponse<String> get(String path, String authorization) throws Exception {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(URI.create("https://127.0.0.1:" + server.port() + path))
                        .timeout(Duration.ofSeconds(10));
        if (authorization != null) request.header("Authorization", authorization);
        return http.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }
}
