package io.upshift.graph.client;

import io.upshift.graph.risk.RuleMatcher.RuleException;
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
 * One PromQL instant query against a Prometheus HTTP API ({@code <url>/api/v1/query}), sent as
 * upstream's promql cluster condition sends it: the query service's host looked up (its Service's
 * cluster IP, unless the target uses DNS), its certificate checked against the target's CA bundle
 * and the URL's host name, the bearer token read from its file at each query. The conditional risks
 * ({@link PrometheusMatcher}) and the node pools' health gates both ask through it, so both are
 * evaluated with the same credentials. Every failure is a {@link RuleException} in upstream's words
 * ("failure determine thanos IP: ...", "executing PromQL query: Get ...: ...").
 *
 * <p>The whole exchange, its answer's body included, is bounded by {@code timeout}; the answer is
 * streamed and refused past {@code maxBytes}.
 */
public final class PromQLClient {

    /** A query's answer as the server gave it: its HTTP status and body. */
    public record Answer(int status, byte[] body) {}

    private final PromQLTarget target;
    private final ServiceLookup services;
    private final Duration timeout;
    private final int maxBytes;

    /** The client for the CA bundle last read, rebuilt when the bundle changes. */
    private Transport transport;

    private record Transport(String caBundle, HttpClient http) {}

    public PromQLClient(
            PromQLTarget target, ServiceLookup services, Duration timeout, int maxBytes) {
        this.target = target;
        this.services = services;
        this.timeout = timeout;
        this.maxBytes = maxBytes;
    }

    public PromQLTarget target() {
        return target;
    }

    /** Sends {@code query} as it is and returns the answer, whatever its status. */
    public synchronized Answer query(String query) throws RuleException {
        URI uri = queryUri(host(), query);
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
        try (BoundedExchange x =
                BoundedExchange.send(
                        http, request.build(), new BoundedExchange.Bounds(maxBytes, timeout))) {
            return new Answer(x.status(), x.readAll());
        } catch (BoundExceeded e) {
            throw new RuleException(get + e.getMessage(), e);
        } catch (IOException e) {
            throw new RuleException(get + describe(e), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RuleException("PromQL query interrupted", e);
        }
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
