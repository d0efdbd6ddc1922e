package io.upshift.releases.image;

import io.upshift.runtime.tls.CaBundle;
import java.io.IOException;
import java.net.http.HttpClient;
import java.time.Duration;

/**
 * How the cluster-version controller reaches the update graph and signature stores, as upstream's
 * {@code pkg/cvo/egress.go} builds its transport: through the cluster's proxy (the Proxy {@code
 * cluster}'s status, with Go's noProxy rules), trusting the cluster's trusted CA bundle (ConfigMap
 * {@code openshift-config-managed/trusted-ca-bundle}, key {@code ca-bundle.crt}) in place of the
 * system's authorities when it holds one, the system's otherwise.
 *
 * <p>When the Proxy cannot be read (the account may not, or the API server fails), the way out is
 * unknown: nothing goes out rather than around the cluster's proxy, as upstream's transport fails.
 *
 * @param trustedCaBundle the bundle's PEM; empty: none (the system's authorities)
 * @param unknown why the proxy is unknown (the Proxy cannot be read); empty when it is known
 */
public record Egress(ProxyRules proxy, String trustedCaBundle, String unknown) {

    public static final String TRUSTED_CA_NAMESPACE = "openshift-config-managed";
    public static final String TRUSTED_CA_CONFIG_MAP = "trusted-ca-bundle";
    public static final String TRUSTED_CA_KEY = "ca-bundle.crt";

    /** No proxy, the system's authorities. */
    public static final Egress NONE = new Egress(ProxyRules.none(), "");

    public Egress {
        trustedCaBundle = trustedCaBundle == null ? "" : trustedCaBundle;
        unknown = unknown == null ? "" : unknown;
    }

    public Egress(ProxyRules proxy, String trustedCaBundle) {
        this(proxy, trustedCaBundle, "");
    }

    /**
     * The proxy to go through.
     *
     * @throws IOException when the proxy is unknown: going out directly could bypass it
     */
    public ProxyRules knownProxy() throws IOException {
        if (!unknown.isEmpty())
            throw new IOException(unknown + ", and requests would bypass the cluster's proxy");
        return proxy;
    }

    /**
     * A client going this way; a bundle of which no certificate can be read is refused in
     * upstream's words.
     */
    public HttpClient httpClient(Duration connectTimeout) throws IOException {
        HttpClient.Builder b =
                HttpClient.newBuilder()
                        .proxy(knownProxy().selector())
                        .connectTimeout(connectTimeout)
                        .followRedirects(HttpClient.Redirect.NORMAL);
        if (!trustedCaBundle.isEmpty()) {
            CaBundle trusted = CaBundle.parse(trustedCaBundle);
            if (trusted.isEmpty())
                throw new IOException(
                        "unable to add "
                                + TRUSTED_CA_KEY
                                + " certificates (ConfigMap "
                                + TRUSTED_CA_NAMESPACE
                                + "/"
                                + TRUSTED_CA_CONFIG_MAP
                                + ")");
            b.sslContext(trusted.context());
        }
        return b.build();
    }
}
