package io.upshift.pools.templates;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import java.nio.charset.StandardCharsets;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * A rendered template's file or unit as Ignition holds it, as upstream's {@code
 * TranspileCoreOSConfigToIgn} makes them from the Fedora CoreOS Config forms its templates use: a
 * file is {@code path}, {@code mode}, {@code contents} ({@code inline} text, or a {@code source}
 * URL), {@code overwrite} (default true), {@code user}, {@code group}; its inline text becomes a
 * {@code data:} URL. A unit is {@code name}, {@code enabled}, {@code mask}, {@code contents},
 * {@code dropins} ({@code name}, {@code contents}). Any other key fails, naming the template.
 */
final class IgnitionEntries {
    private static final Set<String> FILE_KEYS =
            Set.of("path", "mode", "contents", "overwrite", "user", "group");
    private static final Set<String> CONTENT_KEYS = Set.of("inline", "source", "compression");
    private static final Set<String> UNIT_KEYS =
            Set.of("name", "enabled", "mask", "contents", "dropins");
    private static final Set<String> DROPIN_KEYS = Set.of("name", "contents");

    private IgnitionEntries() {}

    static JsonNode yaml(String template, String text) {
        try {
            JsonNode node = Mappers.YAML.readTree(text);
            if (node == null || !node.isObject())
                throw new TemplateException(template, "is not a YAML mapping");
            return node;
        } catch (JsonProcessingException e) {
            throw new TemplateException(template, "is not YAML: " + e.getOriginalMessage());
        }
    }

    static ObjectNode file(String template, JsonNode f) {
        known(template, "a file", f, FILE_KEYS);
        String path = f.path("path").asText("");
        if (!path.startsWith("/"))
            throw new TemplateException(template, "file path \"" + path + "\" is not absolute");
        for (String segment : path.split("/")) {
            if (segment.equals(".."))
                throw new TemplateException(template, "file path \"" + path + "\" contains \"..\"");
        }
        ObjectNode out = Mappers.JSON.createObjectNode().put("path", path);
        if (f.has("mode")) {
            if (!f.get("mode").canConvertToInt()
                    || f.get("mode").asInt() < 0
                    || f.get("mode").asInt() > 07777) {
                throw new TemplateException(
                        template,
                        "file "
                                + path
                                + ": mode "
                                + f.get("mode")
                                + " is not a file mode (such as 0644)");
            }
            out.put("mode", f.get("mode").asInt());
        }
        out.put("overwrite", f.path("overwrite").asBoolean(true));
        for (String owner : new String[] {"user", "group"})
            if (f.has(owner)) out.set(owner, f.get(owner));
        JsonNode contents = f.path("contents");
        if (!contents.isMissingNode()) {
            known(template, "a file's contents", contents, CONTENT_KEYS);
            if (contents.has("inline") == contents.has("source")) {
                throw new TemplateException(
                        template, "file " + path + ": contents need either inline or source");
            }
            ObjectNode c = out.putObject("contents");
            c.put(
                    "source",
                    contents.has("inline")
                            ? dataUrl(contents.get("inline").asText())
                            : contents.get("source").asText());
            if (contents.has("compression"))
                c.put("compression", contents.get("compression").asText());
        }
        return out;
    }

    static ObjectNode unit(String template, JsonNode u) {
        known(template, "a unit", u, UNIT_KEYS);
        String name = u.path("name").asText("");
        // systemd needs the type: the agent refuses a unit named without one (not reconcilable)
        if (name.isEmpty() || name.contains("/") || name.lastIndexOf('.') <= 0) {
            throw new TemplateException(
                    template,
                    "unit name \"" + name + "\" is not a unit file name (such as kubelet.service)");
        }
        ObjectNode out = Mappers.JSON.createObjectNode().put("name", name);
        if (u.has("enabled")) out.put("enabled", u.get("enabled").asBoolean());
        if (u.has("mask")) out.put("mask", u.get("mask").asBoolean());
        if (u.has("contents")) out.put("contents", u.get("contents").asText());
        if (u.has("dropins")) {
            ArrayNode dropins = out.putArray("dropins");
            for (JsonNode d : u.get("dropins")) {
                known(template, "a drop-in", d, DROPIN_KEYS);
                if (d.path("name").asText("").isEmpty() || d.path("name").asText().contains("/")) {
                    throw new TemplateException(
                            template,
                            "unit "
                                    + name
                                    + ": drop-in name \""
                                    + d.path("name").asText("")
                                    + "\" is not a file name");
                }
                ObjectNode dropin = dropins.addObject().put("name", d.get("name").asText());
                if (d.has("contents")) dropin.put("contents", d.get("contents").asText());
            }
        }
        return out;
    }

    /**
     * Two templates of the same unit (several upstream templates each add a drop-in to
     * kubelet.service) merge as Ignition merges configs: the later one's fields replace the earlier
     * one's, drop-ins by name.
     */
    static ObjectNode mergeUnit(ObjectNode earlier, ObjectNode later) {
        ObjectNode out = earlier.deepCopy();
        Map<String, JsonNode> dropins = new LinkedHashMap<>();
        earlier.path("dropins").forEach(d -> dropins.put(d.path("name").asText(), d));
        later.path("dropins").forEach(d -> dropins.put(d.path("name").asText(), d));
        for (Iterator<Map.Entry<String, JsonNode>> it = later.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getKey().equals("dropins")) out.set(e.getKey(), e.getValue());
        }
        if (!dropins.isEmpty()) dropins.values().forEach(out.putArray("dropins")::add);
        return out;
    }

    /** Text as a {@code data:} URL, everything but unreserved characters percent-encoded. */
    static String dataUrl(String text) {
        StringBuilder out = new StringBuilder("data:,");
        for (byte b : text.getBytes(StandardCharsets.UTF_8)) {
            int c = b & 0xff;
            if ((c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || c == '-'
                    || c == '.'
                    || c == '_'
                    || c == '~') {
                out.append((char) c);
            } else {
                out.append('%')
                        .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 15, 16)));
            }
        }
        return out.toString();
    }

    private static void known(String template, String what, JsonNode node, Set<String> keys) {
        if (!node.isObject())
            throw new TemplateException(template, what + " is not a YAML mapping");
        for (Iterator<String> it = node.fieldNames(); it.hasNext(); ) {
            String key = it.next();
            if (!keys.contains(key))
                throw new TemplateException(
                        template,
                        "unknown key \""
                                + key
                                + "\" in "
                                + what
                                + " (known: "
                                + String.join(", ", new TreeSet<>(keys))
                                + ")");
        }
    }
}
