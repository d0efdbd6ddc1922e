package io.upshift.pools.disruption;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.MissingNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigSpec;
import io.upshift.api.json.Mappers;
import java.util.Iterator;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Ignition document of a MachineConfig, read for comparison: numbers in one representation, and
 * empty lists and objects taken as absent (as upstream compares parsed configs, where an empty and
 * a missing section are the same).
 */
record IgnitionConfig(JsonNode root) {

    static IgnitionConfig of(MachineConfigSpec spec) {
        if (spec == null || spec.getConfig() == null)
            return new IgnitionConfig(Mappers.JSON.createObjectNode());
        try {
            // through text, so that 420 read as an int and as a long compare equal
            JsonNode tree =
                    Mappers.JSON.readTree(Mappers.JSON.writeValueAsString(spec.getConfig()));
            return new IgnitionConfig(
                    tree.isObject() ? prune(tree) : Mappers.JSON.createObjectNode());
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException(
                    "MachineConfig config is not JSON: " + e.getOriginalMessage(), e);
        }
    }

    /** Drops nulls and empty lists and objects, depth first. */
    private static JsonNode prune(JsonNode node) {
        if (node.isObject()) {
            ObjectNode o = (ObjectNode) node;
            for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode v = prune(e.getValue());
                if (v.isNull() || (v.isContainerNode() && v.isEmpty())) it.remove();
                else e.setValue(v);
            }
        } else if (node.isArray()) {
            node.forEach(IgnitionConfig::prune);
        }
        return node;
    }

    /** A section such as {@code storage.files}, or a missing node. */
    JsonNode at(String dotted) {
        JsonNode at = root;
        for (String part : dotted.split("\\.")) at = at.path(part);
        return at;
    }

    /** Files by path, in path order. */
    Map<String, JsonNode> files() {
        return byKey(at("storage.files"), "path");
    }

    /** Units by name, in name order. */
    Map<String, JsonNode> units() {
        return byKey(at("systemd.units"), "name");
    }

    JsonNode passwd() {
        JsonNode p = root.path("passwd");
        return p.isMissingNode() ? MissingNode.getInstance() : p;
    }

    private static Map<String, JsonNode> byKey(JsonNode list, String key) {
        Map<String, JsonNode> out = new TreeMap<>();
        for (JsonNode item : list) out.put(item.path(key).asText(), item);
        return out;
    }
}
