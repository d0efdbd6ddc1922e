package io.upshift.releases.signatures;

import io.upshift.releases.image.Egress;
import io.upshift.releases.verify.SignatureStore;
import io.upshift.releases.verify.VerifierConfig;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;

/** Opens a signature store by URL: {@code file://} on disk, {@code http(s)://} over the network. */
public final class SignatureStores {

    private final HttpClient http;

    public SignatureStores(HttpClient http) {
        this.http = http;
    }

    /**
     * The same stores, reached the cluster's way (its proxy and trusted CA bundle), as upstream's
     * signature stores share the update graph's transport.
     */
    public SignatureStores through(Egress egress) throws IOException {
        return new SignatureStores(egress.httpClient(Duration.ofSeconds(10)));
    }

    public SignatureStore open(URI uri) {
        return "file".equals(uri.getScheme())
                ? VerifierConfig.openFile(uri)
                : new HttpSignatureStore(uri, http);
    }
}
