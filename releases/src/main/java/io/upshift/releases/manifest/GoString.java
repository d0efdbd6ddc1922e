package io.upshift.releases.manifest;

/**
 * Go's interpreted string literals ({@code "a\"b\n"}), as a template's string constants are
 * written.
 */
final class GoString {

    private GoString() {}

    /**
     * The value of {@code literal}, quotes included in the argument.
     *
     * @throws ManifestTemplate.UnknownFieldException for an escape Go does not have
     */
    static String unquote(String literal) throws ManifestTemplate.UnknownFieldException {
        StringBuilder s = new StringBuilder(literal.length());
        for (int i = 1; i < literal.length() - 1; i++) {
            char c = literal.charAt(i);
            if (c != '\\') {
                s.append(c);
                continue;
            }
            char e = literal.charAt(++i);
            switch (e) {
                case 'a' -> s.append('\u0007');
                case 'b' -> s.append('\b');
                case 'f' -> s.append('\f');
                case 'n' -> s.append('\n');
                case 'r' -> s.append('\r');
                case 't' -> s.append('\t');
                case 'v' -> s.append('\u000b');
                case '\\', '"', '\'' -> s.append(e);
                case 'x' -> {
                    s.append((char) Integer.parseInt(literal.substring(i + 1, i + 3), 16));
                    i += 2;
                }
                case 'u' -> {
                    s.appendCodePoint(Integer.parseInt(literal.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                case 'U' -> {
                    s.appendCodePoint(Integer.parseInt(literal.substring(i + 1, i + 9), 16));
                    i += 8;
                }
                default ->
                        throw new ManifestTemplate.UnknownFieldException(
                                "unknown escape \\" + e + " in " + literal);
            }
        }
        return s.toString();
    }
}
