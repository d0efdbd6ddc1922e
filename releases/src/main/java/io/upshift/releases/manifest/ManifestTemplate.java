package io.upshift.releases.manifest;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The template language of the operator's own manifests ({@code manifests/}): the subset of Go's
 * text/template the reference payloads use. Fields {@code {{.ReleaseImage}}}, {@code
 * {{.ClusterProfile}}}, {@code {{.Images.name}}} and {@code {{index .Images "name"}}}; string
 * constants ({@code {{"{{ $labels.name }}"}}}, how a payload writes the braces of an alert template
 * it must not fill itself) and raw strings in back quotes; comments ({@code {{/* ... * /}}});
 * <code>{{-</code> and <code>-}}</code> trim the whitespace beside them.
 */
public record ManifestTemplate(
        String releaseImage, String clusterProfile, Map<String, String> images) {

    private static final Pattern IMAGE_FIELD = Pattern.compile("\\.Images\\.([A-Za-z0-9_]+)");
    private static final Pattern IMAGE_INDEX =
            Pattern.compile("index\\s+\\.Images\\s+\"([^\"]+)\"");

    /**
     * A template this release cannot fill: a field it does not know (a newer payload), an image it
     * lacks, bad syntax.
     */
    public static final class UnknownFieldException extends Exception {
        public UnknownFieldException(String message) {
            super(message);
        }
    }

    /** Fills every action in {@code text}. */
    public String render(String text) throws UnknownFieldException {
        if (!text.contains("{{")) return text;
        StringBuilder out = new StringBuilder(text.length());
        int at = 0;
        while (true) {
            int open = text.indexOf("{{", at);
            if (open < 0) break;
            boolean trimLeft = text.startsWith("{{- ", open);
            out.append(
                    trimLeft ? text.substring(at, open).stripTrailing() : text.substring(at, open));
            int start = open + (trimLeft ? 3 : 2);
            int close = closing(text, start);
            boolean trimRight = close - 2 >= start && text.startsWith(" -", close - 2);
            String action = text.substring(start, trimRight ? close - 2 : close).strip();
            out.append(
                    value(action)
                            .orElseThrow(
                                    () ->
                                            new UnknownFieldException(
                                                    "unknown template field {{" + action + "}}")));
            at = close + 2;
            if (trimRight) {
                while (at < text.length() && Character.isWhitespace(text.charAt(at))) at++;
            }
        }
        return out.append(text, at, text.length()).toString();
    }

    /**
     * Where the action starting at {@code from} ends ("}}" outside any string constant or comment).
     */
    private static int closing(String text, int from) throws UnknownFieldException {
        int i = from;
        while (i < text.length()) {
            char c = text.charAt(i);
            if (c == '"') {
                i++;
                while (i < text.length() && text.charAt(i) != '"')
                    i += text.charAt(i) == '\\' ? 2 : 1;
            } else if (c == '`') {
                i = text.indexOf('`', i + 1);
                if (i < 0) break;
            } else if (text.startsWith("/*", i)) {
                i = text.indexOf("*/", i + 2);
                if (i < 0) break;
                i++;
            } else if (text.startsWith("}}", i)) {
                return i;
            }
            i++;
        }
        throw new UnknownFieldException(
                "unclosed action {{"
                        + text.substring(from, Math.min(text.length(), from + 40))
                                .lines()
                                .findFirst()
                                .orElse(""));
    }

    private Optional<String> value(String action) throws UnknownFieldException {
        if (action.startsWith("/*") && action.endsWith("*/")) return Optional.of("");
        if (action.length() >= 2
                && action.startsWith("`")
                && action.endsWith("`")
                && action.indexOf('`', 1) == action.length() - 1) {
            return Optional.of(action.substring(1, action.length() - 1));
        }
        if (action.length() >= 2
                && action.startsWith("\"")
                && action.endsWith("\"")
                && closingQuote(action) == action.length() - 1) {
            return Optional.of(GoString.unquote(action));
        }
        switch (action) {
            case ".ReleaseImage" -> {
                return Optional.of(releaseImage);
            }
            case ".ClusterProfile" -> {
                return Optional.of(clusterProfile);
            }
            default -> {
                Matcher f = IMAGE_FIELD.matcher(action);
                if (f.matches()) return Optional.ofNullable(images.get(f.group(1)));
                Matcher i = IMAGE_INDEX.matcher(action);
                if (i.matches()) return Optional.ofNullable(images.get(i.group(1)));
                return Optional.empty();
            }
        }
    }

    /** The index of the quote that closes the string constant opening {@code s}. */
    private static int closingQuote(String s) {
        int i = 1;
        while (i < s.length() && s.charAt(i) != '"') i += s.charAt(i) == '\\' ? 2 : 1;
        return i;
    }
}
