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

/**
 * Reads firing alerts from a Prometheus ({@code /api/v1/alerts}) or Alertmanager ({@code
 * /api/v2/alerts}) URL, the answer bounded in bytes and the whole exchange in time.
 */
public final class AlertsClient {

    /** A cluster's firing alerts fit in far less; a larger answer is refused at this. */
    public static final int MAX_BYTES = 16 << 20;

    /** The whole exchange, from the request to the answer's last byte. */
    static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI url;
    private final Duration timeout;

    public AlertsClient(String url) {
        this(url, TIMEOUT);
    }

    AlertsClient(String url, Duration timeout) {
        this.timeout = timeout;
        URI u = URI.create(url);
        if (u.getPath() == null || u.getPath().isEmpty() || u.getPath().equals("/")) {
            // A bare server address means Prometheus' alerts endpoint.
            u = u.resolve("/api/v1/alerts");
        }
        this.url = u;
    }

    /**
     * @throws IOException naming the URL and what went wrong; an answer past {@link #MAX_BYTES} or
     *     not complete within its timeout (10 s) names the host and the limit
     */
    public List<Alert> fetch() throws IOException {
        HttpRequest request =
                HttpRequest.newBuilder(url).header("Accept", "application/json").GET().build();
        int status;
        byte[] body;
        try (BoundedExchange x =
                BoundedExchange.send(
                        http, request, new BoundedExchange.Bounds(MAX_BYTES, timeout))) {
            status = x.status();
            body = x.readAll();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(url + ": interrupted", e);
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
        if (status != 200) {
            throw new IOException(url + ": HTTP " + status);
        }
        return AlertsFile.parse(url.toString(), body);
    }
}
