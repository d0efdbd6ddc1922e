package io.upshift.status.model;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Insight uids: derived only from what the insight is about, so the same problem keeps the same uid
 * across evaluations and controller restarts. They are DNS labels ({@code
 * ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$}, at most 63); a name that does not fit as it is gets a hash
 * suffix so that two names never share a uid.
 */
public final class InsightIds {
    private static final int MAX = 63;

    private InsightIds() {}

    public static String of(String prefix, String name) {
        String wanted = prefix + "-" + name;
        if (isLabel(wanted)) {
            return wanted;
        }
        String label = sanitize(wanted);
        String suffix = "-" + hash(wanted);
        String head = label.substring(0, Math.min(label.length(), MAX - suffix.length()));
        head = head.replaceAll("-+$", "");
        return head + suffix;
    }

    private static boolean isLabel(String s) {
        if (s.isEmpty() || s.length() > MAX || s.charAt(s.length() - 1) == '-') {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-')) {
                return false;
            }
        }
        return true;
    }

    private static String sanitize(String s) {
        StringBuilder b = new StringBuilder(s.length());
        for (char c : s.toLowerCase(Locale.ROOT).toCharArray()) {
            b.append((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') ? c : '-');
        }
        return b.toString();
    }

    private static String hash(String s) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
