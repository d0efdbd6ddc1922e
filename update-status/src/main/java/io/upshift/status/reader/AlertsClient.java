package io.upshift.status.reader;

import io.upshift.status.model.Alert;
import io.upshift.status.snapshot.AlertsFile;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;

/**
 * Reads firing alerts from a Prometheus ({@code /api/v1/alerts}) or Alertmanager ({@code
 * /api/v2/alerts}) URL.
 */
public final class AlertsClient {
    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final URI url;

    public AlertsClient(String url) {
        URI u = URI.create(url);
        if (u.getPath() == null || u.getPath().isEmpty() || u.getPath().equals("/")) {
            // A bare server address means Prometheus' alerts endpoint.
            u = u.resolve("/api/v1/alerts");
        }
        this.url = u;
    }

    /**
     * @throws IOException naming the URL and what went wrong
     */
    public List<Alert> fetch() throws IOException {
        HttpRequest request =
                HttpRequest.newBuilder(url)
                        .timeout(Duration.ofSeconds(10))
                        .header("Accept", "application/json")
                        .GET()
                        .build();
        HttpResponse<byte[]> response;
        try {
            response = http.send(request, HttpResponse.BodyHandlers.ofByteArray());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(url + ": interrupted", e);
        } catch (IOException e) {
            throw new IOException(
                    url
                            + ": "
                            + (e.getMessage() == null
                                    ? e.getClass().getSimpleName()
                                    : e.getMessage()),
                    e);
        }
        if (response.statusCode() != 200) {
            throw new IOException(url + ": HTTP " + response.statusCode());
        }
        return AlertsFile.parse(url.toString(), response.body());
    }
}
