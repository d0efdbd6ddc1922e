package io.upshift.runtime.http;

/**
 * {@code If-None-Match} (RFC 9110 13.1.2): whether a request's list of entity tags names the
 * representation a server holds, by weak comparison (a {@code W/} prefix is ignored on either
 * side), or is {@code *}.
 */
public final class EntityTags {
    private EntityTags() {}

    /**
     * Whether the list names one of {@code current} (the tags of what the server would send,
     * quoted); false when the header is absent or unreadable.
     */
    public static boolean matches(String ifNoneMatch, String... current) {
        if (ifNoneMatch == null) return false;
        int i = 0, n = ifNoneMatch.length();
        while (i < n) {
            char c = ifNoneMatch.charAt(i);
            if (c == ' ' || c == '\t' || c == ',') {
                i++;
            } else if (c == '*') {
                return true;
            } else {
                if (ifNoneMatch.startsWith("W/", i)) i += 2;
                if (i >= n || ifNoneMatch.charAt(i) != '"') return false; // not a list of tags
                int end = ifNoneMatch.indexOf('"', i + 1);
                if (end < 0) return false;
                for (String tag : current) {
                    String opaque = tag.startsWith("W/") ? tag.substring(2) : tag;
                    if (opaque.length() == end + 1 - i
                            && ifNoneMatch.regionMatches(i, opaque, 0, opaque.length()))
                        return true;
                }
                i = end + 1;
            }
        }
        return false;
    }
}
