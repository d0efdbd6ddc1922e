package io.upshift.releases.payload;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.releases.manifest.Manifest;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * What a payload's own cluster-version operator is told by its Deployment's arguments: the
 * capabilities it always enables ({@code --always-enable-capabilities}, which the 4.19 operator's
 * Deployment sets to Ingress), so that {@code release graph} counts them as the operator does.
 */
public final class OperatorFlags {
    public static final String ALWAYS_ENABLE = "--always-enable-capabilities";

    private OperatorFlags() {}

    /**
     * The {@value #ALWAYS_ENABLE} of the first Deployment among {@code documents} one of whose
     * containers passes it (upstream's operator at
     * openshift-cluster-version/cluster-version-operator or Upshift's controller); empty when none
     * does.
     */
    public static List<String> alwaysEnabled(List<Manifest> documents) {
        for (Manifest m : documents) {
            if (!"apps".equals(m.group()) || !"Deployment".equals(m.kind())) continue;
            List<List<String>> argvs = containers(m).map(OperatorFlags::argv).toList();
            boolean passes =
                    argvs.stream()
                            .flatMap(List::stream)
                            .anyMatch(
                                    a ->
                                            a.equals(ALWAYS_ENABLE)
                                                    || a.startsWith(ALWAYS_ENABLE + "="));
            if (!passes) continue;
            List<String> out = new ArrayList<>();
            argvs.forEach(argv -> out.addAll(flagValues(argv, ALWAYS_ENABLE)));
            return out;
        }
        return List.of();
    }

    /** Each value of {@code flag} ({@code --f=a,b} or {@code --f a,b}), split on commas. */
    static List<String> flagValues(List<String> argv, String flag) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < argv.size(); i++) {
            String a = argv.get(i), value = null;
            if (a.startsWith(flag + "=")) value = a.substring(flag.length() + 1);
            else if (a.equals(flag) && i + 1 < argv.size()) value = argv.get(++i);
            if (value == null) continue;
            for (String v : value.split(",")) if (!v.isBlank()) out.add(v.trim());
        }
        return out;
    }

    private static List<String> argv(JsonNode container) {
        List<String> out = new ArrayList<>();
        for (String field : List.of("command", "args"))
            container.path(field).forEach(v -> out.add(v.asText()));
        return out;
    }

    private static Stream<JsonNode> containers(Manifest m) {
        JsonNode spec = m.object().path("spec").path("template").path("spec");
        return Stream.concat(stream(spec.path("initContainers")), stream(spec.path("containers")));
    }

    private static Stream<JsonNode> stream(JsonNode list) {
        return StreamSupport.stream(list.spliterator(), false);
    }
}
