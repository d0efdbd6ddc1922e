package io.upshift.releases.signatures;

import java.net.URI;
import java.net.URISyntaxException;
import java.util.Optional;

/**
 * One entry of ClusterVersion {@code spec.signatureStores}: the store's URL and the ConfigMap in
 * {@code openshift-config} whose {@code ca.crt} is its TLS trust anchor ({@code ca.name}; empty:
 * none). Checked as upstream checks it: the CRD asks {@code isURL(self)} of the URL and allows 32
 * entries; the signature store reader (library-go's {@code sigstore}) reads {@code http} and {@code
 * https} stores only, calling any other scheme, {@code file} included, unrecognized.
 */
public record ConfiguredStore(String url, String caConfigMap) {

    /** The namespace of the ConfigMaps {@code ca} names, and the key they hold the PEM under. */
    public static final String CA_NAMESPACE = "openshift-config";

    public static final String CA_KEY = "ca.crt";

    /** As the CRD's {@code maxItems}. */
    public static final int MAX_STORES = 32;

    public ConfiguredStore {
        url = url == null ? "" : url;
        caConfigMap = caConfigMap == null ? "" : caConfigMap;
    }

    /** Why the URL cannot be a store's, if it cannot: not absolute, no host, not http or https. */
    public Optional<String> urlProblem() {
        URI uri;
        try {
            uri = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("not a valid absolute URL: " + e.getMessage());
        }
        if (!uri.isAbsolute()) return Optional.of("not a valid absolute URL");
        String scheme = uri.getScheme().toLowerCase(java.util.Locale.ROOT);
        if (!scheme.equals("https") && !scheme.equals("http"))
            return Optional.of(
                    "the store's scheme "
                            + scheme
                            + " is unrecognized: only https and http stores are read");
        if (uri.getHost() == null || uri.getHost().isEmpty())
            return Optional.of("no host in the URL");
        return Optional.empty();
    }

    /** The URL, once {@link #urlProblem()} found none. */
    public URI uri() {
        return URI.create(url);
    }

    /** How messages name entry {@code index}: {@code spec.signatureStores[1] (https://...)}. */
    public String describe(int index) {
        return "spec.signatureStores[" + index + "] (" + url + ")";
    }
}
