package io.upshift.graph.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.upshift.graph.model.Risk;
import io.upshift.graph.risk.MatchCache;
import io.upshift.graph.risk.RiskCondition;
import io.upshift.graph.risk.RiskEvaluation;
import io.upshift.testkit.LocalPrometheus;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * PromQL risk rules against Debian's real prometheus, scraping metrics that make some rules match
 * and others not.
 */
@Tag("e2e")
class PrometheusMatcherTest {

    @TempDir static Path dir;

    static LocalPrometheus prometheus;

    @BeforeAll
    static void start() throws Exception {
        prometheus =
                LocalPrometheus.start(
                        dir,
                        "cluster_infrastructure_provider{type=\"AWS\"} 1\n"
                                + "upshift_test_nodes{pool=\"worker\"} 3\n"
                                + "upshift_test_nodes{pool=\"master\"} 3\n"
                                + "cluster_version{_id=\"cluster-abc\",type=\"current\"} 1\n");
    }

    @AfterAll
    static void stop() {
        if (prometheus != null) prometheus.close();
    }

    /** A Prometheus asked by its URL, with no credentials. */
    static PromQLTarget plain(URI url) {
        return new PromQLTarget(url, true, "", "", null, null);
    }

    static final ServiceLookup NO_SERVICES =
            (ns, name) -> {
                throw new AssertionError("no Service is looked up with DNS");
            };

    static Risk.MatchingRule promql(String q) {
        return new Risk.MatchingRule("PromQL", q);
    }

    PrometheusMatcher matcher() {
        return new PrometheusMatcher(
                plain(prometheus.url()), NO_SERVICES, "cluster-abc", Duration.ofSeconds(5));
    }

    @Test
    void rulesMatchAndDoNotMatch() throws Exception {
        assertThat(
                        matcher()
                                .match(
                                        promql(
                                                "cluster_infrastructure_provider{type=\"AWS\"} or 0"
                                                        + " * cluster_infrastructure_provider")))
                .isTrue();
        assertThat(
                        matcher()
                                .match(
                                        promql(
                                                "cluster_infrastructure_provider{type=~\"VSphere|None\"}"
                                                    + " or 0 * cluster_infrastructure_provider")))
                .isFalse();
        // _id="" names this cluster
        assertThat(matcher().match(promql("count(cluster_version{_id=\"\"})"))).isTrue();
    }

    @Test
    void anAnswerThatIsNotOneSampleOfZeroOrOneIsAnEvaluationFailure() {
        assertThatThrownBy(() -> matcher().match(promql("upshift_test_nodes")))
                .hasMessage("invalid PromQL result length must be one, but is 2");
        assertThatThrownBy(() -> matcher().match(promql("sum(upshift_test_nodes)")))
                .hasMessage("invalid PromQL result (must be 0 or 1): 6");
        assertThatThrownBy(() -> matcher().match(promql("this is not promql")))
                .hasMessageStartingWith("executing PromQL query: bad_data: ");
    }

    @Test
    void risksGetAppliesConditions() {
        MatchCache cache = MatchCache.standard();
        Instant now = Instant.now();
        Risk aws =
                new Risk(
                        "https://example.com/aws",
                        "AWSOnly",
                        "AWS clusters break.",
                        List.of(
                                promql(
                                        "cluster_infrastructure_provider{type=\"AWS\"} or 0 *"
                                                + " cluster_infrastructure_provider")));
        Risk vsphere =
                new Risk(
                        "https://example.com/vs",
                        "VSphereOnly",
                        "vSphere clusters break.",
                        List.of(
                                promql(
                                        "cluster_infrastructure_provider{type=\"VSphere\"} or 0 *"
                                                + " cluster_infrastructure_provider")));
        assertThat(RiskEvaluation.applies(aws, cache, matcher(), now))
                .isEqualTo(new RiskCondition("Applies", "True", "Match", ""));
        assertThat(RiskEvaluation.applies(vsphere, cache, matcher(), now.plusSeconds(2)).reason())
                .isEqualTo("NotMatch");
    }

    @Test
    void aPrometheusThatDoesNotAnswerTimesOut() throws Exception {
        // it answers nothing until the test is over, however long the client takes to give up
        CountDownLatch over = new CountDownLatch(1);
        HttpServer silent = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        silent.createContext(
                "/",
                x -> {
                    try {
                        over.await();
                    } catch (InterruptedException ignored) {
                        Thread.currentThread().interrupt();
                    }
                    x.close();
                });
        silent.setExecutor(Executors.newCachedThreadPool());
        silent.start();
        try {
            PrometheusMatcher m =
                    new PrometheusMatcher(
                            plain(URI.create("http://127.0.0.1:" + silent.getAddress().getPort())),
                            NO_SERVICES,
                            "x",
                            Duration.ofMillis(300));
            assertThatThrownBy(() -> m.match(promql("up")))
                    .hasMessageStartingWith("executing PromQL query: Get \"http://127.0.0.1:")
                    .hasMessageEndingWith(
                            "127.0.0.1: no complete answer to GET http://127.0.0.1:"
                                    + silent.getAddress().getPort()
                                    + "/api/v1/query?query=up within 300ms, the limit for one"
                                    + " answer");
        } finally {
            over.countDown();
            silent.stop(0);
        }
    }
}
