package io.upshift.releases.signatures;

import io.upshift.releases.verify.SignatureStore;
import io.upshift.runtime.fetch.BoundedExchange;
import io.upshift.runtime.fetch.Deadline;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * A signature store on a web server: {@code GET <base>/sha256=<hex>/signature-<N>} until the first
 * 404, each answer read within its bounds ({@link SignatureStores.Limits}: bytes per signature,
 * time per answer) and the whole store within its own time and the verification's.
 */
public final class HttpSignatureStore implements SignatureStore {

    private final URI base;
    private final HttpClient http;
    private final SignatureStores.Limits limits;
    private final Deadline verification;

    /**
     * @param verification when the verification this store is read for must be over; null: only the
     *     store's own limit
     */
    HttpSignatureStore(
            URI base, HttpClient http, SignatureStores.Limits limits, Deadline verification) {
        this.base = base.toString().endsWith("/") ? base : URI.create(base + "/");
        this.http = http;
        this.limits = limits;
        this.verification = verification;
    }

    public HttpSignatureStore(URI base, HttpClient http) {
        this(base, http, SignatureStores.Limits.DEFAULT, null);
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
        forEach(digest, s -> !out.add(s));
        return out;
    }

    @Override
    public void forEach(String digest, Predicate<byte[]> each) throws IOException {
        Deadline deadline = Deadline.in(limits.perStore(), "reading signature store " + base);
        if (verification != null) deadline = verification.earlier(deadline);
        BoundedExchange.Bounds bounds =
                new BoundedExchange.Bounds(limits.signatureBytes(), limits.perAnswer());
        for (int n = 1; n <= MAX_SIGNATURES; n++) {
            URI uri = base.resolve(SignatureStore.directoryName(digest) + "/signature-" + n);
            byte[] signature;
            try (BoundedExchange x =
                    BoundedExchange.send(
                            http, HttpRequest.newBuilder(uri).GET().build(), bounds, deadline)) {
                if (x.status() == 404) return;
                if (x.status() != 200) throw new IOException("HTTP " + x.status() + " from " + uri);
                signature = x.readAll();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while reading " + uri);
            }
            if (each.test(signature)) return;
        }
    }
}
