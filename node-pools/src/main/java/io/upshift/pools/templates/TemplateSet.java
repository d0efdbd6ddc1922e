package io.upshift.pools.templates;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A release's machine-config templates, as its payload ships them in a ConfigMap: the key {@code
 * releaseVersion} names the release they belong to (a pool controller renders only its own
 * release's templates, as upstream's operator reads only its own release's {@code
 * machine-config-osimageurl}), every other key is a {@link Template}.
 */
public record TemplateSet(String releaseVersion, List<Template> templates) {
    public static final String RELEASE_VERSION = "releaseVersion";

    /**
     * The set a ConfigMap's {@code data} holds; a key that names no template fails the whole set.
     */
    public static TemplateSet parse(Map<String, String> data) {
        String release = data.get(RELEASE_VERSION);
        if (release == null || release.isBlank())
            throw new IllegalArgumentException(
                    "no " + RELEASE_VERSION + " key: the templates must name their release");
        List<Template> templates = new ArrayList<>();
        for (Map.Entry<String, String> e : new TreeMap<>(data).entrySet()) {
            if (!e.getKey().equals(RELEASE_VERSION))
                templates.add(Template.parse(e.getKey(), e.getValue() == null ? "" : e.getValue()));
        }
        return new TemplateSet(release.trim(), List.copyOf(templates));
    }
}
