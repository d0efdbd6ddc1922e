package io.upshift.release.signatures;

import io.upshift.core.verify.SignatureStore;
import io.upshift.core.verify.VerifierConfig;
import java.net.URI;
import java.net.http.HttpClient;

/** Opens a signature store by URL: {@code file://} on disk, {@code http(s)://} over the network. */
public final class SignatureStores {

    private final HttpClient http;

    public SignatureStores(HttpClient http) {
        this.http = http;
    }

    public SignatureStore open(URI uri) {
        return "file".equals(uri.getScheme()) ? VerifierConfig.openFile(uri) : new HttpSignatureStore(uri, http);
    }
}
