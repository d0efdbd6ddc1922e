package io.upshift.testkit;

import io.upshift.testkit.RawImages.Entry;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Release images crafted to reach outside the folder they are extracted into, each a valid payload
 * in its first layer and an attack in the next. Their links are each inside the payload by name,
 * and lead outside only once an earlier link is followed: {@code release-manifests/a/b/d} points
 * three levels up to {@code manifests}, so what lies beneath it is two levels shallower than its
 * name says, and a link beneath it that climbs three levels by name climbs out of the extraction
 * root, to {@link #OUTSIDE} in the folder that holds the target's parent (extracted into {@code
 * DIR/out/target}: {@code DIR/victim}).
 */
public final class HostileImages {

    /** Where the attacks lead, beside the target's parent. */
    public static final String OUTSIDE = "victim";

    /** The file the whiteout attack deletes in {@link #OUTSIDE}. */
    public static final String DELETED = "secret";

    /** The directory the directory attack creates in {@link #OUTSIDE}. */
    public static final String CREATED = "created";

    /** The file, beside the target's parent, that the leaking manifest reads. */
    public static final String LEAKED = "secret.yaml";

    /** An attack: its name, its layers, and the layer entry that must be refused. */
    public record Attack(String name, List<byte[]> layers, String entry) {}

    private static final Entry DEEP_LINK =
            Entry.symlink("release-manifests/a/b/d", "../../../manifests");
    private static final Entry OUT_LINK =
            Entry.symlink("release-manifests/a/b/d/l", "../../../" + OUTSIDE);

    private HostileImages() {}

    public static List<Attack> attacks(String version) throws IOException {
        List<Attack> attacks = new ArrayList<>();
        attacks.add(
                attack(
                        version,
                        "a whiteout that deletes through a link",
                        List.of(DEEP_LINK, OUT_LINK),
                        List.of(Entry.file("release-manifests/a/b/d/l/.wh." + DELETED, "")),
                        OUT_LINK.name()));
        attacks.add(
                attack(
                        version,
                        "a directory created through a link",
                        List.of(DEEP_LINK, OUT_LINK),
                        List.of(Entry.directory("release-manifests/a/b/d/l/" + CREATED)),
                        OUT_LINK.name()));
        attacks.add(
                attack(
                        version,
                        "a manifest that is a link to a file outside",
                        List.of(
                                DEEP_LINK,
                                Entry.symlink(
                                        "release-manifests/0000_99_leak.yaml",
                                        "a/b/d/../../../" + LEAKED)),
                        List.of(),
                        "release-manifests/0000_99_leak.yaml"));
        return attacks;
    }

    private static Attack attack(
            String version, String name, List<Entry> links, List<Entry> then, String entry)
            throws IOException {
        List<byte[]> layers = new ArrayList<>();
        layers.add(RawImages.layer(payload(version)));
        layers.add(RawImages.layer(links));
        if (!then.isEmpty()) layers.add(RawImages.layer(then));
        return new Attack(name, layers, entry);
    }

    /** A payload of one ConfigMap that loads as a release of {@code version}. */
    public static List<Entry> payload(String version) {
        return List.of(
                Entry.directory("manifests"),
                Entry.file(
                        "release-manifests/release-metadata",
                        "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\""
                                + version
                                + "\",\"previous\":[]}"),
                Entry.file(
                        "release-manifests/image-references",
                        "{\"kind\":\"ImageStream\",\"apiVersion\":\"image.openshift.io/v1\","
                                + "\"metadata\":{\"name\":\""
                                + version
                                + "\"},\"spec\":{\"tags\":[]}}"),
                Entry.file(
                        "release-manifests/0000_10_a_config.yaml",
                        "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n"
                                + "  namespace: upshift\n"));
    }
}
