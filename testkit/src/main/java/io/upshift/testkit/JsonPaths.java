package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;

/**
 * The JSONPath printer columns use: fields ({@code .status.desired}), indexes ({@code [0]}, {@code
 * [*]}) and equality filters ({@code [?(@.type=="Available")]}). Anything else matches nothing.
 */
final class JsonPaths {

    private JsonPaths() {}

    /** The first node {@code path} matches in {@code root}, or null. */
    static JsonNode first(JsonNode root, String path) {
        String p = path.trim();
        if (p.startsWith("{") && p.endsWith("}")) p = p.substring(1, p.length() - 1);
        List<JsonNode> current = List.of(root);
        int i = 0;
        while (i < p.length() && !current.isEmpty()) {
            char c = p.charAt(i);
            List<JsonNode> next = new ArrayList<>();
            if (c == '.') {
                int end = i + 1;
                while (end < p.length() && p.charAt(end) != '.' && p.charAt(end) != '[') end++;
                String field = p.substring(i + 1, end);
                for (JsonNode n : current) if (n.has(field)) next.add(n.get(field));
                i = end;
            } else if (c == '[') {
                int end = p.indexOf(']', i);
                if (end < 0) return null;
                String inside = p.substring(i + 1, end);
                for (JsonNode n : current) select(n, inside, next);
                i = end + 1;
            } else {
                return null;
            }
            current = next;
        }
        return current.isEmpty() ? null : current.get(0);
    }

    private static void select(JsonNode array, String inside, List<JsonNode> out) {
        if (!array.isArray()) return;
        if (inside.equals("*")) {
            array.forEach(out::add);
        } else if (inside.startsWith("?(@.") && inside.endsWith(")") && inside.contains("==")) {
            String[] test = inside.substring(4, inside.length() - 1).split("==", 2);
            String field = test[0].trim(), value = test[1].trim().replaceAll("^[\"']|[\"']$", "");
            for (JsonNode n : array)
                if (n.path(field).isValueNode() && n.path(field).asText().equals(value)) out.add(n);
        } else if (inside.matches("-?\\d+")) {
            int index = Integer.parseInt(inside);
            JsonNode n = array.get(index < 0 ? array.size() + index : index);
            if (n != null) out.add(n);
        }
    }
}
