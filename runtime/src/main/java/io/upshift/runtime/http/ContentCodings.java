package io.upshift.runtime.http;

import java.util.Locale;

/**
 * {@code Accept-Encoding} (RFC 9110 12.5.3): whether a client takes gzip, named ({@code gzip},
 * {@code x-gzip}) or through {@code *}, with a weight above 0.
 */
public final class ContentCodings {
    private ContentCodings() {}

    public static boolean acceptsGzip(String acceptEncoding) {
        if (acceptEncoding == null || acceptEncoding.isEmpty()) return false;
        if (acceptEncoding.equals("gzip")) return true; // what most clients send, alone or first
        Boolean named = null;
        boolean any = false;
        for (String part : acceptEncoding.split(",")) {
            int semi = part.indexOf(';');
            String coding = (semi < 0 ? part : part.substring(0, semi)).strip();
            boolean wanted = semi < 0 || weight(part.substring(semi + 1)) > 0;
            if (coding.equalsIgnoreCase("gzip") || coding.equalsIgnoreCase("x-gzip")) {
                named = named == null ? wanted : named || wanted;
            } else if (coding.equals("*")) {
                any = wanted;
            }
        }
        return named != null ? named : any;
    }

    /** The {@code q} of a coding's parameters; 1 when absent, 0 when unreadable. */
    private static double weight(String parameters) {
        for (String p : parameters.split(";")) {
            String s = p.strip().toLowerCase(Locale.ROOT);
            if (s.startsWith("q=")) {
                try {
                    return Double.parseDouble(s.substring(2).strip());
                } catch (NumberFormatException e) {
                    return 0;
                }
            }
        }
        return 1;
    }
}
