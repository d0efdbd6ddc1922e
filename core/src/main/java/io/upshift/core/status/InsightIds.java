package io.upshift.core.status;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;

/**
 * Insight uids: derived only from what the insight is about, so the same problem keeps the same uid across
 * evaluations and controller restarts. They are DNS labels ({@code ^[a-z0-9]([-a-z0-9]*[a-z0-9])?$}, at most 63);
 * a name that does not fit as it is gets a hash suffix so that two names never share a uid.
 */
public final class InsightIds {
    private static final int MAX = 63;

    private InsightIds() {
    }

    public static String of(String prefix, String name) {
        String wanted = prefix + "-" + name;
        String label = wanted.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9-]", "-");
        if (label.equals(wanted) && label.length() <= MAX && !label.endsWith("-")) {
            return label;
        }
        String suffix = "-" + hash(wanted);
        String head = label.substring(0, Math.min(label.length(), MAX - suffix.length()));
        head = head.replaceAll("-+$", "");
        return head + suffix;
    }

    private static String hash(String s) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is part of every JDK", e);
        }
    }
}
