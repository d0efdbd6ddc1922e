package io.upshift.releases.signatures;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A release's signatures as the ConfigMap the cluster-version controller's store reads ({@link
 * ConfigMapSignatureStore}), laid out as {@code oc adm release mirror} publishes them: named {@code
 * sha256-<hex>} after the digest, in {@code openshift-config-managed}, labelled {@code
 * release.openshift.io/verification-signatures}, one binaryData key {@code sha256-<hex>-<N>} per
 * signature, N from 1.
 */
public final class SignatureConfigMap {

    private SignatureConfigMap() {}

    /**
     * The ConfigMap holding {@code signatures} (at least one) of {@code digest} ({@code
     * sha256:<hex>}).
     */
    public static ConfigMap of(String digest, List<byte[]> signatures) {
        if (!digest.matches("sha256:[0-9a-f]{64}"))
            throw new IllegalArgumentException(digest + " is not a sha256 digest");
        if (signatures.isEmpty()) throw new IllegalArgumentException("no signature of " + digest);
        String name = digest.replace(':', '-');
        Map<String, String> data = new TreeMap<>();
        for (int i = 0; i < signatures.size(); i++)
            data.put(name + "-" + (i + 1), Base64.getEncoder().encodeToString(signatures.get(i)));
        return new ConfigMapBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(ConfigMapSignatureStore.NAMESPACE)
                .addToLabels(ConfigMapSignatureStore.LABEL, "")
                .endMetadata()
                .withBinaryData(data)
                .build();
    }

    /**
     * Whether {@code live} already holds what {@code wanted} holds: the same signatures, and the
     * label.
     */
    public static boolean same(ConfigMap live, ConfigMap wanted) {
        Map<String, String> labels = live.getMetadata().getLabels();
        return labels != null
                && labels.containsKey(ConfigMapSignatureStore.LABEL)
                && wanted.getBinaryData()
                        .equals(live.getBinaryData() == null ? Map.of() : live.getBinaryData());
    }
}
