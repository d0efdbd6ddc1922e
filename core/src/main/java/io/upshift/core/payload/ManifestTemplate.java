package io.upshift.core.payload;

import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The template language of the operator's own manifests ({@code manifests/}): the subset of Go templates the
 * reference payloads use. {@code {{.ReleaseImage}}}, {@code {{.ClusterProfile}}}, {@code {{.Images.name}}} and
 * {@code {{index .Images "name"}}}; {@code {{-} and {@code -}}} trim the whitespace beside them.
 */
public record ManifestTemplate(String releaseImage, String clusterProfile, Map<String, String> images) {

    private static final Pattern ACTION = Pattern.compile("\\{\\{(-\\s)?\\s*(.*?)\\s*(\\s-)?}}", Pattern.DOTALL);
    private static final Pattern IMAGE_FIELD = Pattern.compile("\\.Images\\.([A-Za-z0-9_]+)");
    private static final Pattern IMAGE_INDEX = Pattern.compile("index\\s+\\.Images\\s+\"([^\"]+)\"");

    /** A template this release cannot fill: a field it does not know (a newer payload) or an image it lacks. */
    public static final class UnknownFieldException extends Exception {
        public UnknownFieldException(String message) {
            super(message);
        }
    }

    /** Fills every action in {@code text}. */
    public String render(String text) throws UnknownFieldException {
        if (!text.contains("{{")) return text;
        Matcher m = ACTION.matcher(text);
        StringBuilder out = new StringBuilder(text.length());
        int last = 0;
        while (m.find()) {
            String before = text.substring(last, m.start());
            out.append(m.group(1) != null ? before.stripTrailing() : before);
            out.append(value(m.group(2)).orElseThrow(() -> new UnknownFieldException(
                    "unknown template field {{" + m.group(2) + "}}")));
            last = m.end();
            if (m.group(3) != null) {
                while (last < text.length() && Character.isWhitespace(text.charAt(last))) last++;
            }
        }
        return out.append(text, last, text.length()).toString();
    }

    private Optional<String> value(String action) {
        switch (action) {
            case ".ReleaseImage":
                return Optional.of(releaseImage);
            case ".ClusterProfile":
                return Optional.of(clusterProfile);
            default:
                Matcher f = IMAGE_FIELD.matcher(action);
                if (f.matches()) return Optional.ofNullable(images.get(f.group(1)));
                Matcher i = IMAGE_INDEX.matcher(action);
                if (i.matches()) return Optional.ofNullable(images.get(i.group(1)));
                return Optional.empty();
        }
    }
}
