package io.upshift.releases.payload;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collection;
import java.util.HexFormat;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The names in the payload cache that retrieval Jobs fill: one directory per release, named by a
 * hash of its pullspec ({@code <hash>/manifests}, {@code <hash>/release-manifests}), each copied
 * first into a partial directory beside it ({@code <hash>.partial-<token>}) and renamed into place
 * once whole. Which entries are stale is decided here: every partial copy, and every release's
 * directory but those in use. Only names of this form are ever judged, so nothing else that shares
 * the directory is touched.
 */
public final class PayloadCache {

    /** A release's directory, or a partial copy of one. */
    private static final Pattern ENTRY =
            Pattern.compile("([0-9a-f]{10})(\\.partial-[A-Za-z0-9]+)?");

    private PayloadCache() {}

    /** The directory name of {@code pullspec}'s payload: 10 hex digits of its SHA-256. */
    public static String hash(String pullspec) {
        try {
            byte[] d =
                    MessageDigest.getInstance("SHA-256")
                            .digest(pullspec.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /**
     * Where a retrieval copies {@code hash}'s payload before renaming it into place; {@code token}
     * tells retrievals apart.
     */
    public static String partial(String hash, String token) {
        return hash + ".partial-" + token;
    }

    /**
     * The entries of the cache to delete, sorted: partial copies, and the directories of releases
     * other than {@code inUse} (pullspecs: typically the release being retrieved, the one the
     * cluster works towards and the one it last completed). Names that are not the cache's own are
     * never listed.
     */
    public static List<String> stale(Collection<String> entries, Collection<String> inUse) {
        Set<String> keep =
                inUse.stream()
                        .filter(p -> p != null && !p.isEmpty())
                        .map(PayloadCache::hash)
                        .collect(Collectors.toSet());
        return entries.stream()
                .filter(
                        name -> {
                            Matcher m = ENTRY.matcher(name);
                            return m.matches()
                                    && (m.group(2) != null || !keep.contains(m.group(1)));
                        })
                .sorted()
                .toList();
    }
}
