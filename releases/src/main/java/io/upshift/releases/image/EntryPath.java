package io.upshift.releases.image;

import java.util.ArrayList;
import java.util.List;

/**
 * A layer entry's name as segments from the image's root: a leading {@code ./} or {@code /}, empty
 * and {@code .} segments dropped, {@code ..} kept for the caller to judge.
 */
record EntryPath(List<String> segments, boolean absolute) {

    static EntryPath of(String name) {
        List<String> segments = new ArrayList<>();
        for (String s : name.split("/")) if (!s.isEmpty() && !s.equals(".")) segments.add(s);
        return new EntryPath(List.copyOf(segments), name.startsWith("/"));
    }

    boolean climbs() {
        return segments.contains("..");
    }

    /** The segments with each {@code ..} applied; empty when it climbs above the root. */
    List<String> normalized() {
        List<String> out = new ArrayList<>();
        for (String s : segments) {
            if (!s.equals("..")) out.add(s);
            else if (out.isEmpty()) return List.of();
            else out.remove(out.size() - 1);
        }
        return out;
    }

    String top() {
        return segments.isEmpty() ? "" : segments.get(0);
    }

    String leaf() {
        return segments.isEmpty() ? "" : segments.get(segments.size() - 1);
    }

    List<String> parent() {
        return segments.isEmpty() ? List.of() : segments.subList(0, segments.size() - 1);
    }
}
