package io.upshift.releases.signatures;

import io.upshift.releases.verify.SignatureStore;
import io.upshift.releases.verify.VerifierConfig;
import java.net.URI;
import java.net.http.HttpClient;

/** Opens a signature store by URL: {@code file://} on disk, {@code http(s)://} over the network. */
public final class SignatureStores {

    private final HttpClient http;

    public SignatureStores(HttpClient http) {
        this.http = http;
    }

    /** The same stores, reached through {@code proxy} (the cluster's). */
    public SignatureStores through(java.net.ProxySelector proxy) {
        return new SignatureStores(
                HttpClient.newBuilder()
                        .proxy(proxy)
                        .connectTimeout(java.time.Duration.ofSeconds(10))
                        .followRedirects(HttpClient.Redirect.NORMAL)
                        .build());
    }

    public SignatureStore open(URI uri) {
        return "file".equals(uri.getScheme())
                ? VerifierConfig.openFile(uri)
                : new HttpSignatureStore(uri, http);
    }
}
