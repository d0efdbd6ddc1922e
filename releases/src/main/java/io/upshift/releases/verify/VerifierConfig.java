package io.upshift.releases.verify;

import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The trust a release declares for its successors: the payload ConfigMap annotated {@code
 * release.openshift.io/verification-config-map} lists keyrings ({@code verifier-public-key-*}, all
 * of which must sign) and signature stores ({@code store-*}: http, https or file URLs).
 */
public record VerifierConfig(String source, List<Keyring> keyrings, List<URI> stores) {

    public static final String ANNOTATION = "release.openshift.io/verification-config-map";
    public static final String KEY_PREFIX = "verifier-public-key-";
    public static final String STORE_PREFIX = "store-";

    public VerifierConfig {
        keyrings = List.copyOf(keyrings);
        stores = List.copyOf(stores);
    }

    /**
     * Finds the verification ConfigMap among a payload's manifests.
     *
     * @throws ReleaseException VERIFIER_NOT_CONFIGURED when there is none: then nothing can be
     *     verified
     */
    public static VerifierConfig fromPayload(List<Manifest> manifests) throws ReleaseException {
        for (Manifest m : manifests) {
            if ("ConfigMap".equals(m.kind())
                    && m.group().isEmpty()
                    && m.annotations().containsKey(ANNOTATION)) {
                Map<String, String> data = new TreeMap<>();
                m.object()
                        .path("data")
                        .fields()
                        .forEachRemaining(e -> data.put(e.getKey(), e.getValue().asText()));
                return fromData(m.namespace() + "/" + m.name(), data);
            }
        }
        throw new ReleaseException(
                Reason.VERIFIER_NOT_CONFIGURED,
                "the payload has no ConfigMap annotated "
                        + ANNOTATION
                        + ": no release can be verified");
    }

    /**
     * Reads keyrings and store URLs from ConfigMap data, in key order; {@code source} names the
     * ConfigMap.
     */
    public static VerifierConfig fromData(String source, Map<String, String> data)
            throws ReleaseException {
        List<Keyring> keyrings = new ArrayList<>();
        List<URI> stores = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(data).entrySet()) {
            if (e.getKey().startsWith(KEY_PREFIX)) {
                keyrings.add(
                        Keyring.parse(
                                e.getKey().substring(KEY_PREFIX.length()),
                                e.getValue().getBytes(StandardCharsets.UTF_8)));
            } else if (e.getKey().startsWith(STORE_PREFIX)) {
                stores.add(storeUri(source, e.getKey(), e.getValue().trim()));
            }
        }
        if (keyrings.isEmpty()) {
            throw new ReleaseException(
                    Reason.VERIFIER_NOT_CONFIGURED,
                    source + " names no public keys (" + KEY_PREFIX + "*)");
        }
        return new VerifierConfig(source, keyrings, stores);
    }

    /**
     * A verifier reading, in order, {@code clusterStores} (ConfigMaps in the cluster), then {@code
     * overrideStores} when given (ClusterVersion {@code spec.signatureStores} replaces the
     * payload's defaults), else this config's, opened with {@code open}.
     */
    public SignatureVerifier verifier(
            List<SignatureStore> clusterStores,
            List<SignatureStore> overrideStores,
            Function<URI, SignatureStore> open) {
        List<SignatureStore> all = new ArrayList<>(clusterStores);
        if (overrideStores.isEmpty()) stores.forEach(u -> all.add(open.apply(u)));
        else all.addAll(overrideStores);
        return new SignatureVerifier(keyrings, all);
    }

    /** Opens {@code file://} stores; other schemes need the network and come from the adapters. */
    public static SignatureStore openFile(URI uri) {
        if (!"file".equals(uri.getScheme()))
            throw new IllegalArgumentException("not a file URL: " + uri);
        return new DirectoryStore(Path.of(uri));
    }

    private static URI storeUri(String source, String key, String value) throws ReleaseException {
        try {
            URI uri = new URI(value);
            if (uri.getScheme() == null
                    || !List.of("http", "https", "file").contains(uri.getScheme())) {
                throw new ReleaseException(
                        Reason.VERIFIER_NOT_CONFIGURED,
                        source
                                + " "
                                + key
                                + ": \""
                                + value
                                + "\" is not an http, https or file URL");
            }
            return uri;
        } catch (URISyntaxException e) {
            throw new ReleaseException(
                    Reason.VERIFIER_NOT_CONFIGURED,
                    source + " " + key + ": \"" + value + "\" is not a URL: " + e.getReason());
        }
    }
}
