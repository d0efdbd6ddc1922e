package io.upshift.base.gofmt;

/** Go's {@code strings} functions whose exact results oc's text depends on. */
public final class GoStrings {
    private GoStrings() {}

    /**
     * {@code strings.TrimSpace}: leading and trailing white space as Go's {@code unicode.IsSpace}
     * defines it.
     */
    public static String trimSpace(String s) {
        int start = 0, end = s.length();
        while (start < end && isSpace(s.codePointAt(start)))
            start += Character.charCount(s.codePointAt(start));
        while (end > start && isSpace(s.codePointBefore(end)))
            end -= Character.charCount(s.codePointBefore(end));
        return s.substring(start, end);
    }

    /**
     * {@code strings.ReplaceAll(s, "\n", "\n ")}: how oc indents a multi-line message under "
     * Message: ".
     */
    public static String indentLines(String s) {
        return s.replace("\n", "\n  ");
    }

    /**
     * {@code unicode.IsSpace}: ASCII tab, newline, vertical tab, form feed, carriage return, space,
     * then U+0085, U+00A0 and the Unicode space separators (Java's {@code isWhitespace} leaves out
     * the no-break spaces and counts U+001C..1F).
     */
    static boolean isSpace(int cp) {
        if (cp < 0x80) return cp == ' ' || (cp >= '\t' && cp <= '\r');
        if (cp == 0x85 || cp == 0xA0) return true;
        int type = Character.getType(cp);
        return type == Character.SPACE_SEPARATOR
                || type == Character.LINE_SEPARATOR
                || type == Character.PARAGRAPH_SEPARATOR;
    }
}
