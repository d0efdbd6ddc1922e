package io.upshift.base.version;

import java.math.BigInteger;
import java.util.List;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A semantic version (semver.org 2.0.0) as release versions use it: {@code 4.14.1}, {@code
 * 4.15.0-rc.2}, {@code 1.0.0-abc+build}. Ordered by precedence; build metadata is kept but ignored
 * when comparing.
 */
public record SemVer(long major, long minor, long patch, List<String> preRelease, String build)
        implements Comparable<SemVer> {

    private static final Pattern FORMAT =
            Pattern.compile(
                    "(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)"
                        + "(?:-((?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\\.(?:0|[1-9]\\d*|\\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?"
                        + "(?:\\+([0-9a-zA-Z-]+(?:\\.[0-9a-zA-Z-]+)*))?");

    public SemVer {
        preRelease = List.copyOf(preRelease);
        build = build == null ? "" : build;
    }

    /**
     * Parses a version, or throws {@link IllegalArgumentException} saying what is wrong with it.
     */
    public static SemVer parse(String text) {
        Objects.requireNonNull(text, "version");
        Matcher m = FORMAT.matcher(text);
        if (!m.matches()) {
            throw new IllegalArgumentException(
                    "\"" + text + "\" is not a semantic version (MAJOR.MINOR.PATCH[-PRE][+BUILD])");
        }
        try {
            List<String> pre = m.group(4) == null ? List.of() : List.of(m.group(4).split("\\."));
            return new SemVer(
                    Long.parseLong(m.group(1)),
                    Long.parseLong(m.group(2)),
                    Long.parseLong(m.group(3)),
                    pre,
                    m.group(5));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(
                    "\"" + text + "\" has a number too large for a version", e);
        }
    }

    /** True when {@code text} parses. */
    public static boolean isValid(String text) {
        return text != null && FORMAT.matcher(text).matches();
    }

    /** "4.14" for 4.14.1: the stream an update stays within or leaves. */
    public String majorMinor() {
        return major + "." + minor;
    }

    @Override
    public int compareTo(SemVer o) {
        int c = Long.compare(major, o.major);
        if (c == 0) c = Long.compare(minor, o.minor);
        if (c == 0) c = Long.compare(patch, o.patch);
        if (c != 0) return c;
        // A version without pre-release fields ranks above any pre-release of it.
        if (preRelease.isEmpty() || o.preRelease.isEmpty()) {
            return Boolean.compare(preRelease.isEmpty(), o.preRelease.isEmpty());
        }
        for (int i = 0; i < Math.min(preRelease.size(), o.preRelease.size()); i++) {
            c = comparePreRelease(preRelease.get(i), o.preRelease.get(i));
            if (c != 0) return c;
        }
        return Integer.compare(preRelease.size(), o.preRelease.size());
    }

    private static int comparePreRelease(String a, String b) {
        boolean an = a.chars().allMatch(Character::isDigit),
                bn = b.chars().allMatch(Character::isDigit);
        if (an && bn) return new BigInteger(a).compareTo(new BigInteger(b));
        if (an != bn) return an ? -1 : 1;
        return a.compareTo(b);
    }

    @Override
    public String toString() {
        StringBuilder s =
                new StringBuilder()
                        .append(major)
                        .append('.')
                        .append(minor)
                        .append('.')
                        .append(patch);
        if (!preRelease.isEmpty()) s.append('-').append(String.join(".", preRelease));
        if (!build.isEmpty()) s.append('+').append(build);
        return s.toString();
    }
}
