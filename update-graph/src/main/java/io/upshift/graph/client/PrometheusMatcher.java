package io.upshift.graph.client;

import io.upshift.graph.model.Risk;
import io.upshift.graph.risk.PromQLResult;
import io.upshift.graph.risk.RiskEvaluation;
import io.upshift.graph.risk.RuleMatcher;
import io.upshift.runtime.fetch.BoundExceeded;
import io.upshift.runtime.fetch.BoundedExchange;
import io.upshift.runtime.tls.CaBundle;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SNIHostName;
import javax.net.ssl.SSLParameters;

/**
 * Evaluates PromQL matching rules against a Prometheus HTTP API ({@code <url>/api/v1/query}) as
 * upstream's promql cluster condition does: the query service's host looked up (its Service's
 * cluster IP, unless the target uses DNS), its certificate checked against the target's CA bundle
 * and the URL's host name, the bearer token read from its file and sent at each query; {@code
 * _id=""} replaced by the cluster's id. Every failure is an evaluation error in upstream's words
 * ("failure determine thanos IP: ...", "executing PromQL query: client_error: client error: 401",
 * ...), which the risk's Applies condition quotes.
 *
 * <p>The whole exchange, its answer's body included, is bounded by {@code timeout}, shorter than
 * upstream's five minutes: risks are evaluated on the controller's sync, whose status writes must
 * not wait on a hung Prometheus; the answer is streamed and refused past {@link #MAX_BYTES}.
 */
public final class PrometheusMatcher implements RuleMatcher {

    /**
     * A risk's query answers one sample; an answer larger than this is refused where it stands, not
     * read whole.
     */
    public static final int MAX_BYTES = 1 << 20;

    private final PromQLTarget target;
    private final ServiceLookup services;
    private final String clusterId;
    private final Duration timeout;

    /** The client for the CA bundle last read, rebuilt when the bundle changes. */
    private Transport transport;

    private record Transport(String caBundle, HttpClient http) {}

    public PrometheusMatcher(
            PromQLTarget target, ServiceLookup services, String clusterId, Duration timeout) {
        this.target = target;
        this.services = services;
        this.clusterId = clusterId;
        this.timeout = timeout;
    }

    @Override
    public synchronized boolean match(Risk.MatchingRule rule) throws RuleException {
        if (!"PromQL".equals(rule.type()))
            throw new RuleException("not a PromQL rule: " + rule.type());
        URI uri = queryUri(host(), RiskEvaluation.injectClusterId(rule.promql(), clusterId));
        HttpClient http = http();
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET();
        String get = "executing PromQL query: Get \"" + uri + "\": ";
        if (target.tokenFile() != null) {
            try {
                request.header("Authorization", "Bearer " + read(target.tokenFile()));
            } catch (IOException e) {
                throw new RuleException(
                        get + "unable to read authorization credentials: " + e.getMessage(), e);
            }
        }
        int status;
        byte[] body;
        try (BoundedExchange x =
                BoundedExchange.send(
                        http, request.build(), new BoundedExchange.Bounds(MAX_BYTES, timeout))) {
            status = x.status();
            body = x.readAll();
        } catch (BoundExceeded e) {
            throw new RuleException(get + e.getMessage(), e);
        } catch (IOException e) {
            throw new RuleException(get + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuleException("PromQL query interrupted", e);
        }
        return PromQLResult.parse(status, body);
    }

    /** Where the query goes: the Service's cluster IP, or the URL's own host with DNS. */
    private String host() throws RuleException {
        if (target.useDns()) return target.url().getHost();
        try {
            String ip = services.clusterIp(target.serviceNamespace(), target.serviceName());
            return ip.contains(":") ? "[" + ip + "]" : ip;
        } catch (Exception e) {
            throw new RuleException("failure determine thanos IP: " + e.getMessage(), e);
        }
    }

    private URI queryUri(String host, String query) {
        URI url = target.url();
        String path = url.getRawPath() == null ? "" : url.getRawPath();
        if (!path.endsWith("/")) path += "/";
        return URI.create(
                url.getScheme()
                        + "://"
                        + host
                        + ":"
                        + target.port()
                        + path
                        + "api/v1/query?query="
                        + URLEncoder.encode(query, StandardCharsets.UTF_8));
    }

    /**
     * The client trusting the CA bundle as the file holds it now, the server named as the URL names
     * it.
     */
    private HttpClient http() throws RuleException {
        String bundle = "";
        if (target.caBundleFile() != null) {
            try {
                bundle = read(target.caBundleFile());
            } catch (IOException e) {
                throw new RuleException(
                        "creating PromQL round-tripper: unable to read CA cert: " + e.getMessage(),
                        e);
            }
        }
        if (transport != null && transport.caBundle().equals(bundle)) return transport.http();
        CaBundle trusted = CaBundle.parse(bundle);
        if (target.caBundleFile() != null && trusted.isEmpty())
            throw new RuleException(
                    "creating PromQL round-tripper: unable to use specified CA cert file "
                            + target.caBundleFile());
        String serverName = target.url().getHost();
        HttpClient.Builder b =
                HttpClient.newBuilder()
                        .connectTimeout(timeout)
                        .followRedirects(HttpClient.Redirect.NORMAL)
                        .sslContext(trusted.context(serverName));
        if (!serverName.contains(":") && !serverName.matches("[0-9.]+")) {
            SSLParameters sni = new SSLParameters();
            sni.setServerNames(List.of(new SNIHostName(serverName)));
            b.sslParameters(sni);
        }
        transport = new Transport(bundle, b.build());
        return transport.http();
    }

    /** A credentials file, read as upstream's secret files are: "unable to read file F: ...". */
    private static String read(Path file) throws IOException {
        try {
            return Files.readString(file).strip();
        } catch (NoSuchFileException e) {
            throw new IOException(
                    "unable to read file "
                            + file
                            + ": open "
                            + file
                            + ": no such file or directory",
                    e);
        } catch (IOException e) {
            throw new IOException("unable to read file " + file + ": " + describe(e), e);
        }
    }

    private static String describe(IOException e) {
        for (Throwable c = e; c != null; c = c.getCause()) {
            if (c.getMessage() != null && !c.getMessage().isBlank()) return c.getMessage();
        }
        return e.getClass().getSimpleName();
    }
}
