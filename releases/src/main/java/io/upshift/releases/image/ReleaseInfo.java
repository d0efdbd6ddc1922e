package io.upshift.releases.image;

import io.upshift.base.gofmt.Tabwriter;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.taskgraph.RunLevelName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code upshift release info} shows: identity, when it was made ({@code created}, its image
 * config's; null when the config has none), the image it is built on ({@code base}, by digest;
 * empty for a payload-only image), metadata, component images and manifests per run-level.
 */
public record ReleaseInfo(ResolvedImage image, Payload payload, String base, Instant created) {

    /** What {@code oc adm release info} shows for an image without a creation time: Go's zero. */
    static final String NO_TIME = "0001-01-01T00:00:00Z";

    /** How the component images are listed. */
    public enum Images {
        /** Upshift's "Component Versions": name and pullspec. */
        COMPONENTS,
        /** oc's {@code --commits}: name, source repository and commit of each image. */
        COMMITS,
        /** oc's {@code --pullspecs}: name and pullspec of each image. */
        PULLSPECS
    }

    /** Manifests per run-level ("00", "10", …; "-" for files without one), in run-level order. */
    public Map<String, Integer> manifestsByRunLevel() {
        Map<String, Integer> counts = new TreeMap<>();
        for (Manifest m : payload.manifests())
            counts.merge(RunLevelName.of(m.file()), 1, Integer::sum);
        return counts;
    }

    /** {@code created} as {@code oc adm release info} prints it: UTC, whole seconds. */
    public String createdText() {
        return created == null ? NO_TIME : created.truncatedTo(ChronoUnit.SECONDS).toString();
    }

    public String render() {
        return render(Images.COMPONENTS);
    }

    public String render(Images images) {
        StringBuilder s = new StringBuilder();
        s.append("Name:      ").append(payload.version()).append('\n');
        s.append("Digest:    ").append(image.digest()).append('\n');
        s.append("Created:   ").append(createdText()).append('\n');
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
        if (images == Images.COMPONENTS) {
            s.append("\nComponent Versions:\n");
            if (payload.images().images().isEmpty()) s.append("  (none)\n");
            new TreeMap<>(payload.images().images())
                    .forEach(
                            (k, v) -> s.append("  ").append(k).append("  ").append(v).append('\n'));
        } else {
            s.append('\n').append(imagesTable(images));
        }
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

    /**
     * oc's "Images:" section for {@code --commits} or {@code --pullspecs}, byte for byte: the tags
     * naming an image, in the file's order, through Go's tabwriter (minwidth 0, padding 1), the
     * header of {@code --commits} ending in a tab as oc's does.
     */
    String imagesTable(Images images) {
        StringBuilder t = new StringBuilder("Images:\n");
        t.append(images == Images.COMMITS ? "  NAME\tREPO\tCOMMIT\t\n" : "  NAME\tPULL SPEC\n");
        for (ImageReferences.Tag tag : payload.images().tags()) {
            // oc lists every tag whose from is a DockerImage
            if (tag.from() == null || !ImageReferences.DOCKER_IMAGE.equals(tag.from().kind()))
                continue;
            t.append("  ").append(tag.name()).append('\t');
            if (images == Images.COMMITS)
                t.append(tag.annotation(ImageReferences.SOURCE_LOCATION))
                        .append('\t')
                        .append(tag.annotation(ImageReferences.COMMIT_ID));
            else t.append(tag.from().name());
            t.append('\n');
        }
        return new Tabwriter(0, 1).write(t.toString()).flush();
    }
}
