package io.upshift.status.snapshot;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonMappingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.MappingIterator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.FeatureGate;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Reads {@code kubectl get -o yaml|json} dumps: a single object, a {@code List}, a typed list such
 * as {@code NodeList}, or several YAML documents; JSON is accepted whatever the file is called.
 */
public final class ResourceFiles {
    /**
     * The kinds a snapshot may hold, and the classes they are read into: what {@code upshift
     * status} reads, and what {@code upshift rehearse} reads besides (the budgets and pods a drain
     * meets, the admin gate and ack ConfigMaps, the signatures the cluster keeps, the feature set).
     */
    static final Map<String, Class<? extends HasMetadata>> KINDS =
            Map.ofEntries(
                    Map.entry("ClusterVersion", ClusterVersion.class),
                    Map.entry("ClusterOperator", ClusterOperator.class),
                    Map.entry("MachineConfigPool", MachineConfigPool.class),
                    Map.entry("MachineConfig", MachineConfig.class),
                    Map.entry("Node", Node.class),
                    Map.entry("MachineConfigNode", MachineConfigNode.class),
                    Map.entry("Deployment", Deployment.class),
                    Map.entry("PodDisruptionBudget", PodDisruptionBudget.class),
                    Map.entry("Pod", Pod.class),
                    Map.entry("ConfigMap", ConfigMap.class),
                    Map.entry("FeatureGate", FeatureGate.class));

    private static final ObjectMapper JSON = Mappers.JSON;
    private static final ObjectMapper YAML = Mappers.YAML;

    private ResourceFiles() {}

    /**
     * Every object in the text, lists expanded, in file order.
     *
     * @param where the file as the user named it, for messages
     * @throws SnapshotException naming the file, line and column, or the resource and field
     */
    public static List<HasMetadata> read(String where, byte[] content) {
        List<JsonNode> documents = documents(where, content);
        List<HasMetadata> out = new ArrayList<>();
        for (JsonNode doc : documents) {
            if (doc == null || doc.isNull() || doc.isMissingNode()) {
                continue;
            }
            String kind = doc.path("kind").asText("");
            if (kind.equals("List") || (kind.endsWith("List") && doc.has("items"))) {
                JsonNode items = doc.path("items");
                String itemKind =
                        kind.equals("List")
                                ? null
                                : kind.substring(0, kind.length() - "List".length());
                for (int i = 0; i < items.size(); i++) {
                    out.add(convert(where, items.get(i), itemKind, "items[" + i + "]"));
                }
            } else if (kind.isEmpty()) {
                throw new SnapshotException(
                        where + ": a document has no kind (expected a Kubernetes object or List)");
            } else {
                out.add(convert(where, doc, null, null));
            }
        }
        return out;
    }

    private static List<JsonNode> documents(String where, byte[] content) {
        boolean json = looksLikeJson(content);
        try (MappingIterator<JsonNode> it =
                (json ? JSON : YAML).readerFor(JsonNode.class).readValues(content)) {
            return it.readAll();
        } catch (JsonProcessingException e) {
            throw new SnapshotException(
                    where
                            + ": "
                            + at(e.getLocation())
                            + "not valid "
                            + (json ? "JSON" : "YAML")
                            + ": "
                            + e.getOriginalMessage().lines().findFirst().orElse(""),
                    e);
        } catch (IOException e) {
            throw new SnapshotException(where + ": cannot read: " + e.getMessage(), e);
        }
    }

    private static boolean looksLikeJson(byte[] content) {
        for (byte b : content) {
            if (b == '{' || b == '[') {
                return true;
            }
            if (!Character.isWhitespace(b)) {
                return false;
            }
        }
        return false;
    }

    private static HasMetadata convert(
            String where, JsonNode node, String listKind, String position) {
        String kind = node.path("kind").asText(listKind == null ? "" : listKind);
        String name = node.path("metadata").path("name").asText("");
        String what =
                (kind.isEmpty() ? "object" : kind)
                        + (name.isEmpty() ? "" : " " + name)
                        + (position == null ? "" : " (" + position + ")");
        Class<? extends HasMetadata> type = KINDS.get(kind);
        if (type == null) {
            throw new SnapshotException(
                    where
                            + ": "
                            + what
                            + ": unsupported kind \""
                            + kind
                            + "\" (expected one of "
                            + KINDS.keySet().stream().sorted().collect(Collectors.joining(", "))
                            + ")");
        }
        if (name.isEmpty()) {
            throw new SnapshotException(where + ": " + what + ": metadata.name is missing");
        }
        try {
            HasMetadata object = JSON.treeToValue(node, type);
            ResourceChecks.check(where, object);
            return object;
        } catch (JsonMappingException e) {
            throw new SnapshotException(
                    where
                            + ": "
                            + what
                            + ": "
                            + path(e)
                            + ": "
                            + e.getOriginalMessage().lines().findFirst().orElse(""),
                    e);
        } catch (JsonProcessingException e) {
            throw new SnapshotException(where + ": " + what + ": " + e.getOriginalMessage(), e);
        }
    }

    private static String path(JsonMappingException e) {
        StringBuilder b = new StringBuilder();
        for (JsonMappingException.Reference r : e.getPath()) {
            if (r.getIndex() >= 0) {
                b.append('[').append(r.getIndex()).append(']');
            } else if (r.getFieldName() != null) {
                b.append(b.length() == 0 ? "" : ".").append(r.getFieldName());
            }
        }
        return b.length() == 0 ? "(object)" : b.toString();
    }

    private static String at(JsonLocation location) {
        if (location == null || location.getLineNr() < 0) {
            return "";
        }
        return "line " + location.getLineNr() + ", column " + location.getColumnNr() + ": ";
    }
}
