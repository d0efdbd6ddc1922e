package io.upshift.release.signatures;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.core.verify.SignatureStore;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Signatures kept in the cluster: ConfigMaps in {@code openshift-config-managed} labelled
 * {@code release.openshift.io/verification-signatures}, binaryData keys {@code sha256-<hex>-<N>}.
 */
public final class ConfigMapSignatureStore implements SignatureStore {

    public static final String NAMESPACE = "openshift-config-managed";
    public static final String LABEL = "release.openshift.io/verification-signatures";

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

    @Override
    public List<byte[]> signatures(String digest) throws IOException {
        String prefix = digest.replace(':', '-') + "-";
        List<ConfigMap> maps;
        try {
            maps = client.configMaps().inNamespace(namespace).withLabel(LABEL).list().getItems();
        } catch (KubernetesClientException e) {
            throw new IOException("cannot list ConfigMaps in " + namespace + ": HTTP " + e.getCode() + " " + e.getStatus().getMessage(), e);
        }
        // Ordered by ConfigMap name, then by N, so signature-N order is stable across reads.
        TreeMap<String, byte[]> found = new TreeMap<>();
        for (ConfigMap cm : maps) {
            Map<String, String> data = cm.getBinaryData() == null ? Map.of() : cm.getBinaryData();
            for (Map.Entry<String, String> e : data.entrySet()) {
                String suffix = e.getKey().startsWith(prefix) ? e.getKey().substring(prefix.length()) : "";
                if (!suffix.matches("\\d{1,4}")) continue;
                try {
                    found.put(cm.getMetadata().getName() + "/" + String.format("%04d", Integer.parseInt(suffix)), Base64.getDecoder().decode(e.getValue()));
                } catch (IllegalArgumentException bad) {
                    throw new IOException("ConfigMap " + namespace + "/" + cm.getMetadata().getName() + " key " + e.getKey() + " is not base64");
                }
            }
        }
        return new ArrayList<>(found.values()).subList(0, Math.min(found.size(), MAX_SIGNATURES));
    }
}
