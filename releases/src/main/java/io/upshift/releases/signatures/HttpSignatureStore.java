package io.upshift.releases.signatures;

import io.upshift.releases.verify.SignatureStore;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A signature store on a web server: {@code GET <base>/sha256=<hex>/signature-<N>} until the first
 * 404.
 */
public final class HttpSignatureStore implements SignatureStore {

    /** Signatures are small; anything larger is not one. */
    static final int MAX_BYTES = 1 << 20;

    private final URI base;
    private final HttpClient http;

    public HttpSignatureStore(URI base, HttpClient http) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.http = http;
    }

    public static HttpClient defaultClient() {
        return HttpClient.newBuilder()
                .connectTimeout(Duration.ofSeconds(10))
                .followRedirects(HttpClient.Redirect.NORMAL)
                .build();
    }

    @Override
    public String name() {
        return base.toString();
    }

    @Override
    public List<byte[]> signatures(String digest) throws IOException {
        List<byte[]> out = new ArrayList<>();
        for (int n = 1; n <= MAX_SIGNATURES; n++) {
            URI uri = base.resolve(SignatureStore.directoryName(digest) + "/signature-" + n);
            HttpResponse<byte[]> response;
            try {
                response =
                        http.send(
                                HttpRequest.newBuilder(uri)
                                        .timeout(Duration.ofSeconds(30))
                                        .GET()
                                        .build(),
                                HttpResponse.BodyHandlers.ofByteArray());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException("interrupted while reading " + uri, e);
            }
            if (response.statusCode() == 404) break;
            if (response.statusCode() != 200)
                throw new IOException("HTTP " + response.statusCode() + " from " + uri);
            if (response.body().length > MAX_BYTES)
                throw new IOException(
                        uri
                                + " is "
                                + response.body().length
                                + " bytes: too large for a signature");
            out.add(response.body());
        }
        return out;
    }
}
