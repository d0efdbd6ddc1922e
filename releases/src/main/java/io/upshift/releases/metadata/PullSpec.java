package io.upshift.releases.metadata;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * An image pull spec split as oc splits one ({@code library-go/pkg/image/reference.Parse}):
 * registry, namespace (the first path element), name, tag and digest ({@code id}). oc's update
 * command uses it to refuse targets that name no registry or repository, or no tag or digest, and
 * to match a requested image to an available update by digest; the error messages are the Docker
 * reference grammar's, as oc prints them.
 */
public record PullSpec(String registry, String namespace, String name, String tag, String id) {

    // The distribution reference grammar. A separator may be empty there ("[-]*"), which makes the
    // name grammar
    // ambiguous and slow to fail in a backtracking engine; "-+" with possessive runs accepts the
    // same names.
    private static final String NAME_COMPONENT = "[a-z0-9]++(?:(?:[._]|__|-+)[a-z0-9]++)*";
    private static final String HOST_COMPONENT = "[a-zA-Z0-9](?:[a-zA-Z0-9-]*[a-zA-Z0-9])?";
    private static final String HOST =
            HOST_COMPONENT + "(?:\\." + HOST_COMPONENT + ")*(?::[0-9]+)?";
    private static final String NAME =
            "(?:" + HOST + "/)?" + NAME_COMPONENT + "(?:/" + NAME_COMPONENT + ")*";
    private static final String TAG = "[\\w][\\w.-]{0,127}";
    private static final String DIGEST =
            "[A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}";
    private static final Pattern REFERENCE =
            Pattern.compile("(" + NAME + ")(?::(" + TAG + "))?(?:@(" + DIGEST + "))?");
    private static final int NAME_MAX = 255;

    /**
     * Parses a pull spec, or throws {@link IllegalArgumentException} with the reference library's
     * message.
     */
    public static PullSpec parse(String spec) {
        Matcher m = REFERENCE.matcher(spec);
        if (!m.matches()) {
            if (spec.isEmpty())
                throw new IllegalArgumentException(
                        "repository name must have at least one component");
            if (REFERENCE.matcher(spec.toLowerCase(Locale.ROOT)).matches())
                throw new IllegalArgumentException("repository name must be lowercase");
            throw new IllegalArgumentException("invalid reference format");
        }
        String name = m.group(1),
                tag = m.group(2) == null ? "" : m.group(2),
                digest = m.group(3) == null ? "" : m.group(3);
        if (name.length() > NAME_MAX)
            throw new IllegalArgumentException(
                    "repository name must not be more than " + NAME_MAX + " characters");
        if (!digest.isEmpty()) checkDigest(digest);

        int slash = name.indexOf('/');
        boolean registryOnly = slash < 0 && (name.contains(".") || name.startsWith("localhost"));
        boolean nameOnly =
                (slash < 0 && !registryOnly)
                        || (slash >= 0
                                && !name.substring(0, slash).matches(".*[:.].*")
                                && !name.substring(0, slash).equals("localhost"));
        String registry = "", path = "";
        if (registryOnly) {
            registry = spec; // the whole reference, as the library keeps it
        } else if (nameOnly) {
            path = name;
        } else {
            registry = name.substring(0, slash);
            path = name.substring(slash + 1);
        }
        String namespace = "";
        int first = path.indexOf('/');
        if (first >= 0) {
            namespace = path.substring(0, first);
            path = path.substring(first + 1);
        }
        return new PullSpec(registry, namespace, path, registryOnly ? "" : tag, digest);
    }

    private static void checkDigest(String digest) {
        int colon = digest.indexOf(':');
        int hex = digest.length() - colon - 1;
        Integer expected =
                switch (digest.substring(0, colon)) {
                    case "sha256" -> 64;
                    case "sha384" -> 96;
                    case "sha512" -> 128;
                    default -> null;
                };
        if (expected == null) throw new IllegalArgumentException("unsupported digest algorithm");
        if (hex != expected) throw new IllegalArgumentException("invalid checksum digest length");
    }
}
