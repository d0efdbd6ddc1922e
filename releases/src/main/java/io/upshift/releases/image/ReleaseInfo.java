package io.upshift.releases.image;

import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.taskgraph.RunLevelName;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code upshift release info} shows: identity, the image it is built on ({@code base}, by
 * digest; empty for a payload-only image), metadata, component images and manifests per run-level.
 */
public record ReleaseInfo(ResolvedImage image, Payload payload, String base) {

    /** Manifests per run-level ("00", "10", …; "-" for files without one), in run-level order. */
    public Map<String, Integer> manifestsByRunLevel() {
        Map<String, Integer> counts = new TreeMap<>();
        for (Manifest m : payload.manifests())
            counts.merge(RunLevelName.of(m.file()), 1, Integer::sum);
        return counts;
    }

    public String render() {
        StringBuilder s = new StringBuilder();
        s.append("Name:      ").append(payload.version()).append('\n');
        s.append("Digest:    ").append(image.digest()).append('\n');
        s.append("Pull From: ").append(image.pullspec()).append('\n');
        if (!base.isEmpty()) s.append("Base:      ").append(base).append('\n');
        s.append("Size:      ")
                .append(image.size())
                .append(" bytes in ")
                .append(image.layers().size())
                .append(image.layers().size() == 1 ? " layer\n" : " layers\n");
        if (!payload.metadata().previous().isEmpty())
            s.append("Upgrades:  ")
                    .append(String.join(", ", payload.metadata().previous()))
                    .append('\n');
        if (!payload.metadata().url().isEmpty())
            s.append("Metadata URL: ").append(payload.metadata().url()).append('\n');
        if (!payload.metadata().metadata().isEmpty()) {
            s.append("\nMetadata:\n");
            new TreeMap<>(payload.metadata().metadata())
                    .forEach(
                            (k, v) -> s.append("  ").append(k).append(": ").append(v).append('\n'));
        }
        s.append("\nComponent Versions:\n");
        if (payload.images().images().isEmpty()) s.append("  (none)\n");
        new TreeMap<>(payload.images().images())
                .forEach((k, v) -> s.append("  ").append(k).append("  ").append(v).append('\n'));
        s.append("\nManifests: ")
                .append(payload.manifests().size())
                .append(" (")
                .append(payload.excluded().size())
                .append(" excluded for the default profile)\n");
        manifestsByRunLevel()
                .forEach(
                        (level, n) ->
                                s.append("  run-level ")
                                        .append(level)
                                        .append(": ")
                                        .append(n)
                                        .append('\n'));
        return s.toString();
    }
}
