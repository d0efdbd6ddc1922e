package io.upshift.clusterversion.upgrade;

import io.upshift.base.version.SemVerSyntax;
import java.util.Comparator;
import java.util.function.Function;

/**
 * The order oc lists and picks updates in (its {@code sortReleasesBySemanticVersions}): newest
 * version first, then the versions that do not parse, in reverse string order. Sorting is stable,
 * as Go's sort is on lists this short.
 */
final class ReleaseOrder {
    private ReleaseOrder() {}

    static <T> Comparator<T> newestFirst(Function<T, String> version) {
        return (x, y) -> {
            String a = nz(version.apply(x)), b = nz(version.apply(y));
            SemVerSyntax.Parsed pa = SemVerSyntax.parse(a), pb = SemVerSyntax.parse(b);
            if (pa.valid() && pb.valid()) return pb.version().compareTo(pa.version());
            if (pa.valid() != pb.valid()) return pa.valid() ? -1 : 1;
            return b.compareTo(a);
        };
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
