package io.upshift.status.reader;

import io.upshift.runtime.fetch.BoundExceeded;
import io.upshift.runtime.fetch.BoundedExchange;
import io.upshift.status.model.Alert;
import io.upshift.status.snapshot.AlertsFile;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.List;
import javax.net.ssl.SSLContext;

/**
 * Reads firing alerts from a Prometheus ({@code /api/v1/alerts}) or Alertmanager ({@code
 * /api/v2/alerts}) URL, the answer bounded in bytes and the whole exchange in time; over TLS
 * trusted as the caller says, with a bearer token when given one.
 */
public final class AlertsClient {

    /** A cluster's firing alerts fit in far less; a larger answer is refused at this. */
    public static final int MAX_BYTES = 16 << 20;

    /** The whole exchange, from the request to the answer's last byte. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http;
    private final URI url;
    private final Duration timeout;
    private final String token;

    public AlertsClient(String url) {
        this(url, TIMEOUT);
    }

    AlertsClient(String url, Duration timeout) {
        this(bare(URI.create(url)), timeout, null, null);
    }

    /**
     * {@code url} read over TLS trusted by {@code tls} (null: the system's), with {@code token} as
     * its bearer token (null: none).
     */
    public AlertsClient(URI url, Duration timeout, SSLContext tls, String token) {
        HttpClient.Builder b = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5));
        if (tls != null) b.sslContext(tls);
        this.http = b.build();
        this.url = url;
        this.timeout = timeout;
        this.token = token;
    }

    /** A bare server address means Prometheus' alerts endpoint. */
    private static URI bare(URI u) {
        if (u.getPath() == null || u.getPath().isEmpty() || u.getPath().equals("/"))
            return u.resolve("/api/v1/alerts");
        return u;
    }

    public URI url() {
        return url;
    }

    /** The status and body of a GET, however the server answered. */
    public record Answer(int status, byte[] body) {}

    /**
     * @throws IOException as the exchange failed; an answer past {@link #MAX_BYTES} or not complete
     *     within its timeout names the host and the limit ({@link BoundExceeded})
     */
    public Answer get() throws IOException {
        HttpRequest.Builder request =
                HttpRequest.newBuilder(url).header("Accept", "application/json").GET();
        if (token != null) request.header("Authorization", "Bearer " + token);
        try (BoundedExchange x =
                BoundedExchange.send(
                        http, request.build(), new BoundedExchange.Bounds(MAX_BYTES, timeout))) {
            int status = x.status();
            return new Answer(status, x.readAll());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    /**
     * @throws IOException naming the URL and what went wrong; an answer past {@link #MAX_BYTES} or
     *     not complete within its timeout (10 s) names the host and the limit
     */
    public List<Alert> fetch() throws IOException {
        Answer answer;
        try {
            answer = get();
        } catch (BoundExceeded e) {
            throw e;
        } catch (IOException e) {
            throw new IOException(
                    url
                            + ": "
                            + (e.getMessage() == null
                                    ? e.getClass().getSimpleName()
                                    : e.getMessage()),
                    e);
        }
        if (answer.status() != 200) {
            throw new IOException(url + ": HTTP " + answer.status());
        }
        return AlertsFile.parse(url.toString(), answer.body());
    }
}
