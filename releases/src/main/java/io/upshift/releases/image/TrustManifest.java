package io.upshift.releases.image;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.verify.VerifierConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.TreeMap;

/**
 * The trust a release declares for the releases after it, as a payload manifest: the ConfigMap
 * {@code openshift-config-managed/release-verification} annotated {@value
 * VerifierConfig#ANNOTATION}, one {@code verifier-public-key-<name>} per armored public keyring
 * (every one must have signed a release the cluster updates to), preceded by its Namespace;
 * included in the profiles a cluster runs by default.
 */
public final class TrustManifest {
    /**
     * Where {@code release new --trust} writes it in the payload: with the controller's own
     * manifests, early in run-level 0.
     */
    public static final String FILE = "0000_00_cluster-version-operator_04_verification.yaml";

    private static final String NAMESPACE = "openshift-config-managed";
    private static final Map<String, String> INCLUDE =
            Map.of(
                    "include.release.openshift.io/self-managed-high-availability",
                    "true",
                    "include.release.openshift.io/single-node-developer",
                    "true");

    private TrustManifest() {}

    /**
     * The manifest (YAML, two documents) trusting {@code keyrings}: name (a ConfigMap key's
     * characters) to armored keyring.
     */
    public static String of(Map<String, String> keyrings) {
        if (keyrings.isEmpty()) throw new IllegalArgumentException("no keyring to trust");
        ObjectNode namespace =
                Mappers.YAML.createObjectNode().put("apiVersion", "v1").put("kind", "Namespace");
        metadata(namespace, NAMESPACE, null);
        ObjectNode configMap =
                Mappers.YAML.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        metadata(configMap, "release-verification", NAMESPACE)
                .with("annotations")
                .put(VerifierConfig.ANNOTATION, "");
        ObjectNode data = configMap.putObject("data");
        new TreeMap<>(keyrings)
                .forEach(
                        (name, armored) -> {
                            if (!name.matches("[-._a-zA-Z0-9]+"))
                                throw new IllegalArgumentException(
                                        "keyring name " + name + " is not a ConfigMap key");
                            data.put(VerifierConfig.KEY_PREFIX + name, armored);
                        });
        try {
            return Mappers.YAML.writeValueAsString(namespace)
                    + Mappers.YAML.writeValueAsString(configMap);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static ObjectNode metadata(ObjectNode object, String name, String namespace) {
        ObjectNode metadata = object.putObject("metadata").put("name", name);
        if (namespace != null) metadata.put("namespace", namespace);
        ObjectNode annotations = metadata.putObject("annotations");
        new TreeMap<>(INCLUDE).forEach(annotations::put);
        return metadata;
    }

    /** The keyring name of a key file: its name without extension, as a ConfigMap key allows it. */
    public static String keyringName(String fileName) {
        String base =
                fileName.contains(".")
                        ? fileName.substring(0, fileName.lastIndexOf('.'))
                        : fileName;
        String name = base.replaceAll("[^-._a-zA-Z0-9]", "-");
        return name.isEmpty() ? "key" : name;
    }
}
