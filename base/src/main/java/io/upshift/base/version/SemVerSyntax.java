package io.upshift.base.version;

import io.upshift.base.gofmt.GoQuote;
import java.math.BigInteger;
import java.util.Optional;

/**
 * Whether a string parses as a version the way oc parses one ({@code github.com/blang/semver} v3
 * {@code Parse}), and if not, that library's words for why: oc prints them ("--to must be a
 * semantic version ...: Invalid character(s) found in patch number ...") and sorts versions that do
 * not parse after those that do.
 */
public final class SemVerSyntax {
    private static final String NUMBERS = "0123456789";
    private static final String ALPHANUM =
            "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-" + NUMBERS;
    private static final BigInteger MAX_UINT64 =
            BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private SemVerSyntax() {}

    /** The version, or why it does not parse. */
    public record Parsed(SemVer version, String error) {
        public boolean valid() {
            return error == null;
        }
    }

    /**
     * Parses as blang/semver does; a number beyond Java's long, which blang would still take, is an
     * error here.
     */
    public static Parsed parse(String s) {
        Optional<String> problem = problem(s);
        if (problem.isPresent()) return new Parsed(null, problem.get());
        try {
            return new Parsed(SemVer.parse(s), null);
        } catch (IllegalArgumentException e) {
            return new Parsed(null, e.getMessage());
        }
    }

    /** Why {@code s} is not a version, in blang/semver's words; empty when it is one. */
    public static Optional<String> problem(String s) {
        if (s == null || s.isEmpty()) return Optional.of("Version string empty");
        String[] parts = s.split("\\.", 3);
        if (parts.length != 3) return Optional.of("No Major.Minor.Patch elements found");
        Optional<String> p = number(parts[0], "major", "Major");
        if (p.isEmpty()) p = number(parts[1], "minor", "Minor");
        if (p.isPresent()) return p;
        String patch = parts[2], build = null, pre = null;
        int plus = patch.indexOf('+');
        if (plus >= 0) {
            build = patch.substring(plus + 1);
            patch = patch.substring(0, plus);
        }
        int dash = patch.indexOf('-');
        if (dash >= 0) {
            pre = patch.substring(dash + 1);
            patch = patch.substring(0, dash);
        }
        p = number(patch, "patch", "Patch");
        if (p.isPresent()) return p;
        if (pre != null) {
            for (String id : pre.split("\\.", -1)) {
                if (id.isEmpty()) return Optional.of("Prerelease is empty");
                if (only(id, NUMBERS)) {
                    if (leadingZero(id))
                        return Optional.of(
                                "Numeric PreRelease version must not contain leading zeroes "
                                        + GoQuote.quote(id));
                    if (new BigInteger(id).compareTo(MAX_UINT64) > 0)
                        return Optional.of(outOfRange(id));
                } else if (!only(id, ALPHANUM)) {
                    return Optional.of(
                            "Invalid character(s) found in prerelease " + GoQuote.quote(id));
                }
            }
        }
        if (build != null) {
            for (String id : build.split("\\.", -1)) {
                if (id.isEmpty()) return Optional.of("Build meta data is empty");
                if (!only(id, ALPHANUM))
                    return Optional.of(
                            "Invalid character(s) found in build meta data " + GoQuote.quote(id));
            }
        }
        return Optional.empty();
    }

    private static Optional<String> number(String n, String lower, String upper) {
        if (!only(n, NUMBERS))
            return Optional.of(
                    "Invalid character(s) found in " + lower + " number " + GoQuote.quote(n));
        if (leadingZero(n))
            return Optional.of(
                    upper + " number must not contain leading zeroes " + GoQuote.quote(n));
        // strconv.ParseUint's own errors: "" has no digits, and a number must fit 64 bits.
        if (n.isEmpty())
            return Optional.of(
                    "strconv.ParseUint: parsing " + GoQuote.quote(n) + ": invalid syntax");
        if (new BigInteger(n).compareTo(MAX_UINT64) > 0) return Optional.of(outOfRange(n));
        return Optional.empty();
    }

    private static String outOfRange(String n) {
        return "strconv.ParseUint: parsing " + GoQuote.quote(n) + ": value out of range";
    }

    private static boolean only(String s, String set) {
        return s.codePoints().allMatch(cp -> cp < 0x80 && set.indexOf(cp) >= 0);
    }

    private static boolean leadingZero(String s) {
        return s.length() > 1 && s.charAt(0) == '0';
    }
}
