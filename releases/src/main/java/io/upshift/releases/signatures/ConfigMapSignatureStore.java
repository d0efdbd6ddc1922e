package io.upshift.releases.signatures;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.releases.verify.SignatureStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Signatures kept in the cluster: ConfigMaps in {@code openshift-config-managed} labelled {@code
 * release.openshift.io/verification-signatures}, binaryData keys {@code sha256-<hex>-<N>}.
 */
public final class ConfigMapSignatureStore implements SignatureStore {

    public static final String NAMESPACE = "openshift-config-managed";
    public static final String LABEL = "release.openshift.io/verification-signatures";

    /** The ConfigMap verified signatures are kept in, as upstream's persister names it. */
    public static final String MANAGED = "signatures-managed";

    /** As upstream's signature cache: at most this many digests are kept. */
    static final int MAX_DIGESTS = 64;

    private final KubernetesClient client;
    private final String namespace;

    public ConfigMapSignatureStore(KubernetesClient client, String namespace) {
        this.client = client;
        this.namespace = namespace;
    }

    @Override
    public String name() {
        return "ConfigMaps in " + namespace + " labelled " + LABEL;
    }

    /**
     * Keeps the signatures that verified {@code digest} in the ConfigMap {@code
     * signatures-managed}, under {@code sha256-<hex>-<i>} from 0 as library-go's store persister
     * names them, so that the next verification of this release (after a restart, or with the
     * stores out of reach) needs no network. Unlike the persister, which rewrites the ConfigMap
     * from its in-memory cache, digests kept earlier stay (up to {@link #MAX_DIGESTS}); nothing is
     * written when the ConfigMap already holds these signatures.
     *
     * @return whether the ConfigMap was written
     */
    public boolean keep(String digest, List<byte[]> signatures) throws IOException {
        if (signatures.isEmpty()) return false;
        String prefix = digest.replace(':', '-') + "-";
        Map<String, String> wanted = new TreeMap<>();
        for (int i = 0; i < signatures.size(); i++)
            wanted.put(prefix + i, Base64.getEncoder().encodeToString(signatures.get(i)));
        try {
            ConfigMap existing = client.configMaps().inNamespace(namespace).withName(MANAGED).get();
            if (existing == null) {
                client.configMaps()
                        .inNamespace(namespace)
                        .resource(
                                new ConfigMapBuilder()
                                        .withNewMetadata()
                                        .withName(MANAGED)
                                        .withNamespace(namespace)
                                        .addToLabels(LABEL, "")
                                        .endMetadata()
                                        .withBinaryData(wanted)
                                        .build())
                        .create();
                return true;
            }
            Map<String, String> data =
                    new TreeMap<>(
                            existing.getBinaryData() == null ? Map.of() : existing.getBinaryData());
            boolean same =
                    wanted.entrySet().stream()
                                    .allMatch(e -> e.getValue().equals(data.get(e.getKey())))
                            && data.keySet().stream().filter(k -> k.startsWith(prefix)).count()
                                    == wanted.size();
            if (same
                    && existing.getMetadata().getLabels() != null
                    && existing.getMetadata().getLabels().containsKey(LABEL)) return false;
            data.keySet().removeIf(k -> k.startsWith(prefix));
            List<String> digests =
                    data.keySet().stream()
                            .map(k -> k.replaceFirst("-\\d+$", ""))
                            .distinct()
                            .toList();
            for (String old : digests.subList(0, Math.max(0, digests.size() - (MAX_DIGESTS - 1))))
                data.keySet().removeIf(k -> k.startsWith(old + "-"));
            data.putAll(wanted);
            existing.setBinaryData(data);
            existing.getMetadata()
                    .setLabels(
                            new HashMap<>(
                                    existing.getMetadata().getLabels() == null
                                            ? Map.of()
                                            : existing.getMetadata().getLabels()));
            existing.getMetadata().getLabels().put(LABEL, "");
            client.configMaps()
                    .inNamespace(namespace)
                    .resource(existing)
                    .update(); // conditional on the resourceVersion read
            return true;
        } catch (KubernetesClientException e) {
            throw new IOException(
                    "cannot keep the signatures of "
                            + digest
                            + " in ConfigMap "
                            + namespace
                            + "/"
                            + MANAGED
                            + ": HTTP "
                            + e.getCode()
                            + " "
                            + e.getMessage(),
                    e);
        }
    }

    @Override
    public List<byte[]> signatures(String digest) throws IOException {
        List<ConfigMap> maps;
        try {
            maps = client.configMaps().inNamespace(namespace).withLabel(LABEL).list().getItems();
        } catch (KubernetesClientException e) {
            throw new IOException(
                    "cannot list ConfigMaps in "
                            + namespace
                            + ": HTTP "
                            + e.getCode()
                            + " "
                            + e.getStatus().getMessage(),
                    e);
        }
        return signatures(namespace, maps, digest);
    }

    /**
     * The signatures of {@code digest} that ConfigMaps of {@code namespace} hold (read from the
     * API, or from a snapshot), as this store reads them.
     *
     * @throws IOException naming the ConfigMap and key of a value that is not base64
     */
    public static List<byte[]> signatures(String namespace, List<ConfigMap> maps, String digest)
            throws IOException {
        String prefix = digest.replace(':', '-') + "-";
        // Ordered by ConfigMap name, then by N, so signature-N order is stable across reads.
        TreeMap<String, byte[]> found = new TreeMap<>();
        for (ConfigMap cm : maps) {
            Map<String, String> data = cm.getBinaryData() == null ? Map.of() : cm.getBinaryData();
            for (Map.Entry<String, String> e : data.entrySet()) {
                String suffix =
                        e.getKey().startsWith(prefix) ? e.getKey().substring(prefix.length()) : "";
                if (!suffix.matches("\\d{1,4}")) continue;
                try {
                    found.put(
                            cm.getMetadata().getName()
                                    + "/"
                                    + String.format("%04d", Integer.parseInt(suffix)),
                            Base64.getDecoder().decode(e.getValue()));
                } catch (IllegalArgumentException bad) {
                    throw new IOException(
                            "ConfigMap "
                                    + namespace
                                    + "/"
                                    + cm.getMetadata().getName()
                                    + " key "
                                    + e.getKey()
                                    + " is not base64");
                }
            }
        }
        return new ArrayList<>(found.values()).subList(0, Math.min(found.size(), MAX_SIGNATURES));
    }
}
