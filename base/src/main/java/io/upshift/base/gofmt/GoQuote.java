package io.upshift.base.gofmt;

/** Go's {@code %q} for strings: double quotes with Go escapes, printable Unicode kept as it is. */
public final class GoQuote {
    private GoQuote() {}

    public static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        s.codePoints()
                .forEach(
                        cp -> {
                            switch (cp) {
                                case '"' -> b.append("\\\"");
                                case '\\' -> b.append("\\\\");
                                case '\n' -> b.append("\\n");
                                case '\t' -> b.append("\\t");
                                case '\r' -> b.append("\\r");
                                case 0x07 -> b.append("\\a");
                                case 0x08 -> b.append("\\b");
                                case 0x0c -> b.append("\\f");
                                case 0x0b -> b.append("\\v");
                                default -> {
                                    if (cp < 0x20 || cp == 0x7f) {
                                        b.append(String.format("\\x%02x", cp));
                                    } else {
                                        b.appendCodePoint(cp);
                                    }
                                }
                            }
                        });
        return b.append('"').toString();
    }
}
