package io.upshift.base.gofmt;

/**
 * Go's {@code time.Duration} arithmetic and text on nanosecond counts, ported so that durations
 * print exactly as {@code oc} prints them (https://pkg.go.dev/time#Duration.String).
 */
public final class GoDuration {
    public static final long NANOSECOND = 1L;
    public static final long MICROSECOND = 1_000L;
    public static final long MILLISECOND = 1_000_000L;
    public static final long SECOND = 1_000_000_000L;
    public static final long MINUTE = 60 * SECOND;
    public static final long HOUR = 60 * MINUTE;

    private GoDuration() {}

    /** {@code Duration.String()}: "72h3m0.5s", "1.5ms", "0s". */
    public static String format(long d) {
        if (d == 0) {
            return "0s";
        }
        boolean neg = d < 0;
        // Work on the magnitude as unsigned so that Long.MIN_VALUE prints like Go does.
        long u = neg ? -d : d;
        StringBuilder out = new StringBuilder();
        if (Long.compareUnsigned(u, SECOND) < 0) {
            int prec;
            String unit;
            if (Long.compareUnsigned(u, MICROSECOND) < 0) {
                return (neg ? "-" : "") + Long.toUnsignedString(u) + "ns";
            } else if (Long.compareUnsigned(u, MILLISECOND) < 0) {
                prec = 3;
                unit = "µs";
            } else {
                prec = 6;
                unit = "ms";
            }
            out.append(fraction(u, prec)).append(unit);
        } else {
            String secs = fraction(u, 9);
            long wholeSeconds = Long.divideUnsigned(u, SECOND);
            long minutes = wholeSeconds / 60;
            String secText =
                    (wholeSeconds % 60)
                            + secs.substring(
                                    secs.indexOf('.') < 0 ? secs.length() : secs.indexOf('.'));
            if (minutes > 0) {
                long hours = minutes / 60;
                if (hours > 0) {
                    out.append(hours).append('h');
                }
                out.append(minutes % 60).append('m');
            }
            out.append(secText).append('s');
        }
        return (neg ? "-" : "") + out;
    }

    /**
     * The value divided by 10^prec, with trailing zeros of the fraction (and a bare dot) removed.
     */
    private static String fraction(long u, int prec) {
        long pow = 1;
        for (int i = 0; i < prec; i++) {
            pow *= 10;
        }
        long whole = Long.divideUnsigned(u, pow);
        long frac = Long.remainderUnsigned(u, pow);
        if (frac == 0) {
            return Long.toUnsignedString(whole);
        }
        String f = String.format("%0" + prec + "d", frac);
        int end = f.length();
        while (end > 0 && f.charAt(end - 1) == '0') {
            end--;
        }
        return Long.toUnsignedString(whole) + "." + f.substring(0, end);
    }

    /** {@code Duration.Round(m)}: to the nearest multiple of m, halves away from zero. */
    public static long round(long d, long m) {
        if (m <= 0) {
            return d;
        }
        long r = d % m;
        if (d < 0) {
            r = -r;
            if (lessThanHalf(r, m)) {
                return d + r;
            }
            long d1 = d - m + r;
            return d1 < d ? d1 : Long.MIN_VALUE;
        }
        if (lessThanHalf(r, m)) {
            return d - r;
        }
        long d1 = d + m - r;
        return d1 > d ? d1 : Long.MAX_VALUE;
    }

    private static boolean lessThanHalf(long x, long y) {
        return Long.compareUnsigned(x + x, y) < 0;
    }

    /** {@code Duration.Truncate(m)}: towards zero to a multiple of m. */
    public static long truncate(long d, long m) {
        return m <= 0 ? d : d - d % m;
    }

    /**
     * {@code Duration.Seconds()}, computed the way Go computes it so floating-point results agree.
     */
    public static double seconds(long d) {
        long sec = d / SECOND;
        long nsec = d % SECOND;
        return (double) sec + (double) nsec / 1e9;
    }

    /**
     * {@code time.ParseDuration} for the unit forms Go prints ("1h2m3.5s", "-4ms", "0").
     *
     * @throws IllegalArgumentException naming the text when it is not a duration
     */
    public static long parse(String s) {
        String orig = s;
        if (s.isEmpty()) {
            throw new IllegalArgumentException("invalid duration \"" + orig + "\"");
        }
        boolean neg = false;
        if (s.charAt(0) == '-' || s.charAt(0) == '+') {
            neg = s.charAt(0) == '-';
            s = s.substring(1);
        }
        if (s.equals("0")) {
            return 0;
        }
        if (s.isEmpty()) {
            throw new IllegalArgumentException("invalid duration \"" + orig + "\"");
        }
        double total = 0;
        long exact = 0;
        boolean fractional = false;
        int i = 0;
        while (i < s.length()) {
            int start = i;
            while (i < s.length() && (Character.isDigit(s.charAt(i)) || s.charAt(i) == '.')) {
                i++;
            }
            String number = s.substring(start, i);
            int unitStart = i;
            while (i < s.length() && !Character.isDigit(s.charAt(i)) && s.charAt(i) != '.') {
                i++;
            }
            String unit = s.substring(unitStart, i);
            if (number.isEmpty() || number.equals(".") || unit.isEmpty()) {
                throw new IllegalArgumentException("invalid duration \"" + orig + "\"");
            }
            long scale =
                    switch (unit) {
                        case "ns" -> NANOSECOND;
                        case "us", "µs", "μs" -> MICROSECOND;
                        case "ms" -> MILLISECOND;
                        case "s" -> SECOND;
                        case "m" -> MINUTE;
                        case "h" -> HOUR;
                        default ->
                                throw new IllegalArgumentException(
                                        "unknown unit \""
                                                + unit
                                                + "\" in duration \""
                                                + orig
                                                + "\"");
                    };
            if (number.indexOf('.') >= 0) {
                fractional = true;
                total += Double.parseDouble(number) * scale;
            } else {
                exact = Math.addExact(exact, Math.multiplyExact(Long.parseLong(number), scale));
            }
        }
        long value = fractional ? Math.addExact(exact, (long) total) : exact;
        return neg ? -value : value;
    }

    /**
     * The short form {@code oc} shows: "now" for zero, no trailing zero units ("1h", "5m", "2h3m"),
     * fractions of a second dropped. A quirk kept on purpose: Go cuts the text at the dot and
     * re-reads it as seconds, so 368.975µs reads as 368s, which prints as 6m8s.
     */
    public static String shortFormat(long d) {
        String orig = format(d);
        if (orig.equals("0h0m0s") || orig.equals("0s")) {
            return "now";
        }
        if (orig.endsWith("h0m0s")) {
            return orig.substring(0, orig.length() - 4);
        }
        if (orig.endsWith("m0s")) {
            return orig.substring(0, orig.length() - 2);
        }
        if (orig.endsWith("h0m")) {
            return orig.substring(0, orig.length() - 2);
        }
        int dot = orig.indexOf('.');
        if (dot >= 0) {
            try {
                return shortFormat(parse(orig.substring(0, dot) + "s"));
            } catch (IllegalArgumentException | ArithmeticException e) {
                return orig;
            }
        }
        return orig;
    }
}
