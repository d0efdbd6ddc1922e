package io.upshift.graph.client;

import io.upshift.graph.model.Risk;
import io.upshift.graph.risk.PromQLResult;
import io.upshift.graph.risk.RiskEvaluation;
import io.upshift.graph.risk.RuleMatcher;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Evaluates PromQL matching rules against a Prometheus HTTP API ({@code <base>/api/v1/query}), with
 * {@code _id=""} replaced by the cluster's id and a bounded wait.
 */
public final class PrometheusMatcher implements RuleMatcher {

    private final URI base;
    private final String clusterId;
    private final Duration timeout;
    private final HttpClient http;

    public PrometheusMatcher(URI base, String clusterId, Duration timeout) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.clusterId = clusterId;
        this.timeout = timeout;
        this.http = HttpClient.newBuilder().connectTimeout(timeout).build();
    }

    @Override
    public boolean match(Risk.MatchingRule rule) throws RuleException {
        if (!"PromQL".equals(rule.type()))
            throw new RuleException("not a PromQL rule: " + rule.type());
        String query = RiskEvaluation.injectClusterId(rule.promql(), clusterId);
        URI uri =
                base.resolve(
                        "api/v1/query?query=" + URLEncoder.encode(query, StandardCharsets.UTF_8));
        HttpResponse<byte[]> response;
        try {
            response =
                    http.send(
                            HttpRequest.newBuilder(uri).timeout(timeout).GET().build(),
                            HttpResponse.BodyHandlers.ofByteArray());
        } catch (HttpTimeoutException e) {
            throw new RuleException(
                    "PromQL query to " + base + " timed out after " + timeout.toMillis() + " ms",
                    e);
        } catch (IOException e) {
            throw new RuleException("PromQL query to " + base + " failed: " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuleException("PromQL query interrupted", e);
        }
        if (response.statusCode() != 200
                && response.statusCode() != 400
                && response.statusCode() != 422) {
            throw new RuleException(
                    "PromQL query to " + base + " answered HTTP " + response.statusCode());
        }
        return PromQLResult.parse(response.body());
    }
}
