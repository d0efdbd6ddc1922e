package io.upshift.releases.metadata;

import io.upshift.base.gofmt.GoQuote;
import io.upshift.base.version.SemVer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;

/**
 * The versions of the components a release is made of ({@code kubernetes 1.32.5}), as {@code oc adm
 * release info} reads them from its image-references (openshift/oc pkg/cli/admin/release/info.go
 * {@code readComponentVersions}): each tag's annotation {@value #VERSIONS} ({@code
 * kubernetes=1.32.5,kubectl=1.32.5}), semantic versions without their build metadata, and display
 * names from {@value #DISPLAY_NAMES}. A component several tags name with different versions shows
 * the lowest (as strings, as oc sorts them) and is warned about, but for {@code machine-os}; {@code
 * kubectl} counts only from the tags {@code cli} and {@code cli-artifacts}. An annotation oc cannot
 * parse names no component and is warned about in oc's words.
 *
 * @param components by name, sorted
 * @param warnings what oc lists under "Warnings:", sorted
 */
public record ComponentVersions(SortedMap<String, Component> components, List<String> warnings) {

    /** The tag annotation listing the component versions an image carries. */
    public static final String VERSIONS = "io.openshift.build.versions";

    /** The tag annotation naming the components for display. */
    public static final String DISPLAY_NAMES = "io.openshift.build.version-display-names";

    private static final Pattern KEY = Pattern.compile("^[a-z0-9]+[\\-a-z0-9]*[a-z0-9]+$");
    private static final Pattern DISPLAY_NAME = Pattern.compile("^[a-zA-Z0-9\\-:\\s().]+$");

    /** One component: its version and display name (empty when none is given). */
    public record Component(String version, String displayName) {}

    public ComponentVersions {
        components = Collections.unmodifiableSortedMap(new TreeMap<>(components));
        warnings = List.copyOf(warnings);
    }

    public static ComponentVersions of(ImageReferences references) {
        List<String> warnings = new ArrayList<>();
        Map<String, SortedSet<String>> versions = new TreeMap<>();
        Map<String, SortedSet<String>> names = new TreeMap<>();
        for (ImageReferences.Tag tag : references.tags()) {
            if (tag.annotations() == null || !tag.annotations().containsKey(VERSIONS)) continue;
            Map<String, Component> all;
            try {
                all = parse(tag.annotation(VERSIONS), tag.annotation(DISPLAY_NAMES));
            } catch (IllegalArgumentException e) {
                warnings.add(
                        "the referenced image "
                                + tag.name()
                                + " had an invalid version annotation: "
                                + e.getMessage());
                continue;
            }
            all.forEach(
                    (k, v) -> {
                        if (k.equals("kubectl")
                                && !tag.name().equals("cli")
                                && !tag.name().equals("cli-artifacts")) return;
                        versions.computeIfAbsent(k, x -> new TreeSet<>()).add(v.version());
                        names.computeIfAbsent(k, x -> new TreeSet<>()).add(v.displayName());
                    });
        }
        SortedMap<String, Component> out = new TreeMap<>();
        SortedSet<String> multiples = new TreeSet<>();
        for (var e : versions.entrySet()) {
            String k = e.getKey();
            SortedSet<String> display = names.get(k);
            boolean single = k.equals("machine-os");
            if (!single && (e.getValue().size() > 1 || display.size() > 1)) multiples.add(k);
            out.put(k, new Component(e.getValue().first(), display.first()));
        }
        if (!multiples.isEmpty())
            warnings.add(
                    "multiple versions or display names reported for the following component(s): "
                            + String.join(",  ", multiples));
        Collections.sort(warnings);
        return new ComponentVersions(out, warnings);
    }

    /**
     * oc's {@code parseComponentVersionsLabel}: comma-separated {@code NAME=VERSION} pairs and
     * {@code NAME=DISPLAY NAME} pairs, surrounding spaces ignored.
     *
     * @throws IllegalArgumentException in oc's words
     */
    static Map<String, Component> parse(String label, String displayNames) {
        label = label.strip();
        if (label.isEmpty()) return Map.of();
        Map<String, String> display = new LinkedHashMap<>();
        if (!displayNames.isEmpty()) {
            for (String raw : displayNames.split(",", -1)) {
                String pair = raw.strip();
                String[] parts = pair.split("=", 2);
                if (parts.length == 1)
                    throw new IllegalArgumentException(
                            "the display name pair "
                                    + GoQuote.quote(pair)
                                    + " must be NAME=DISPLAYNAME");
                key(parts[0]);
                if (!DISPLAY_NAME.matcher(parts[1]).matches())
                    throw new IllegalArgumentException(
                            "the display name "
                                    + GoQuote.quote(parts[1])
                                    + " must only be alphanumerics, spaces, and symbols in"
                                    + " [().:-]");
                display.put(parts[0], parts[1]);
            }
        }
        Map<String, Component> out = new LinkedHashMap<>();
        for (String raw : label.split(",", -1)) {
            String pair = raw.strip();
            String[] parts = pair.split("=", 2);
            if (parts.length == 1)
                throw new IllegalArgumentException(
                        "the version pair " + GoQuote.quote(pair) + " must be NAME=VERSION");
            key(parts[0]);
            SemVer v;
            try {
                v = SemVer.parse(parts[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException(
                        "the version pair "
                                + GoQuote.quote(pair)
                                + " must have a valid semantic version: "
                                + e.getMessage(),
                        e);
            }
            SemVer bare = new SemVer(v.major(), v.minor(), v.patch(), v.preRelease(), "");
            out.put(parts[0], new Component(bare.toString(), display.getOrDefault(parts[0], "")));
        }
        return out;
    }

    private static void key(String name) {
        if (name.length() < 2)
            throw new IllegalArgumentException(
                    "the version name " + GoQuote.quote(name) + " must be at least 2 characters");
        if (!KEY.matcher(name).matches())
            throw new IllegalArgumentException(
                    "the version name "
                            + GoQuote.quote(name)
                            + " must only be ASCII alphanumerics and internal hyphens");
    }
}
