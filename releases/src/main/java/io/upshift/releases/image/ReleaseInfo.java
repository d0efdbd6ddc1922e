package io.upshift.releases.image;

import io.upshift.base.gofmt.Tabwriter;
import io.upshift.base.version.SemVer;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.metadata.ComponentVersions;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.taskgraph.RunLevelName;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What {@code upshift release info} shows. First what {@code oc adm release info} shows, under its
 * headings and meaning what its mean (openshift/oc pkg/cli/admin/release/info.go {@code
 * describeReleaseInfo}): name, digest, creation time ({@code created}, its image config's; null
 * when the config has none), OS and architecture ({@code platform}, its config's {@code os/arch}),
 * the files of {@code release-manifests/} ({@code files}), the pullspec by digest, the release
 * metadata, the component versions its image-references declare, and its images; then, under
 * headings of Upshift's own, the image it is built on ({@code base}, by digest; empty for a
 * payload-only image), its layers, and the payload's documents per run-level as a default cluster
 * loads them.
 */
public record ReleaseInfo(
        ResolvedImage image,
        Payload payload,
        String base,
        Instant created,
        String platform,
        ManifestFiles files) {

    /** What {@code oc adm release info} shows for an image without a creation time: Go's zero. */
    static final String NO_TIME = "0001-01-01T00:00:00Z";

    /** How the component images are listed, as oc lists them. */
    public enum Images {
        /** oc's default: name and digest of each image. */
        DIGESTS,
        /** oc's {@code --commits}: name, source repository and commit of each image. */
        COMMITS,
        /** oc's {@code --pullspecs}: name and pullspec of each image. */
        PULLSPECS
    }

    /** Documents per run-level ("00", "10", …; "-" for files without one), in run-level order. */
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

    /** oc's "OS/Arch": {@code os/arch}, {@code multi (os/arch)} for the entry of a list. */
    String platformText() {
        return image.listed() ? "multi (" + platform + ")" : platform;
    }

    public String render() {
        return render(Images.DIGESTS);
    }

    public String render(Images images) {
        return oc(images) + upshift();
    }

    /**
     * What oc prints, byte for byte: its lines laid out by Go's tabwriter (minwidth 0, padding 1),
     * the sections oc lays out with a tabwriter of their own laid out apart, as oc's are.
     */
    String oc(Images images) {
        ComponentVersions components = ComponentVersions.of(payload.images());
        StringBuilder s = new StringBuilder();
        s.append("Name:\t").append(payload.version()).append('\n');
        s.append("Digest:\t").append(image.digest()).append('\n');
        s.append("Created:\t").append(createdText()).append('\n');
        s.append("OS/Arch:\t").append(platformText()).append('\n');
        s.append("Manifests:\t").append(files.manifests()).append('\n');
        if (files.metadata() > 0)
            s.append("Metadata files:\t").append(files.metadata()).append('\n');
        s.append('\n');
        s.append("Pull From:\t").append(image.pullspec()).append('\n');
        s.append("\nRelease Metadata:\n");
        s.append("  Version:\t").append(payload.metadata().version()).append('\n');
        List<String> previous = payload.metadata().previous();
        s.append("  Upgrades:\t")
                .append(previous.isEmpty() ? "<none>" : String.join(", ", semantic(previous)))
                .append('\n');
        StringBuilder metadata = new StringBuilder("  Metadata:\n");
        new TreeMap<>(payload.metadata().metadata())
                .forEach(
                        (k, v) -> {
                            // oc leaves out empty values
                            if (!v.isEmpty())
                                metadata.append("    ")
                                        .append(k)
                                        .append(":\t")
                                        .append(v)
                                        .append('\n');
                        });
        s.append(section(metadata.toString()));
        if (!components.components().isEmpty()) {
            s.append("\nComponent Versions:\n");
            components
                    .components()
                    .forEach(
                            (k, c) ->
                                    s.append("  ")
                                            .append(k)
                                            .append('\t')
                                            .append(c.version())
                                            .append('\t')
                                            .append(c.displayName())
                                            .append('\n'));
        }
        s.append('\n').append(imagesTable(images));
        if (!components.warnings().isEmpty()) {
            StringBuilder w = new StringBuilder("\nWarnings:\n");
            components.warnings().forEach(x -> w.append("* ").append(x).append('\n'));
            s.append(section(w.toString()));
        }
        s.append('\n');
        return new Tabwriter(0, 1).write(s.toString()).flush();
    }

    /** Upshift's own: the base image, the layers, the documents per run-level. */
    String upshift() {
        StringBuilder s = new StringBuilder();
        if (!base.isEmpty()) s.append("Base Image:\t").append(base).append('\n');
        s.append("Image Layers:\t")
                .append(image.layers().size())
                .append(", ")
                .append(image.size())
                .append(" bytes\n");
        s.append("\nPayload Documents: ")
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
        return new Tabwriter(0, 1).write(s.toString()).flush();
    }

    /** A part oc writes through a tabwriter of its own ({@code writeTabSection}). */
    private static String section(String text) {
        return new Tabwriter(0, 1).write(text).flush();
    }

    /** oc's order of the upgrades: by semantic version, unless one is not a version. */
    private static List<String> semantic(List<String> versions) {
        if (!versions.stream().allMatch(SemVer::isValid)) return versions;
        List<String> sorted = new ArrayList<>(versions);
        sorted.sort((a, b) -> SemVer.parse(a).compareTo(SemVer.parse(b)));
        return sorted;
    }

    /**
     * oc's "Images:" section, byte for byte: the tags naming an image, in the file's order, through
     * Go's tabwriter (minwidth 0, padding 1), the header of {@code --commits} ending in a tab as
     * oc's does.
     */
    String imagesTable(Images images) {
        StringBuilder t = new StringBuilder("Images:\n");
        t.append(
                switch (images) {
                    case COMMITS -> "  NAME\tREPO\tCOMMIT\t\n";
                    case PULLSPECS -> "  NAME\tPULL SPEC\n";
                    case DIGESTS -> "  NAME\tDIGEST\n";
                });
        for (ImageReferences.Tag tag : payload.images().tags()) {
            // oc lists every tag whose from is a DockerImage
            if (tag.from() == null || !ImageReferences.DOCKER_IMAGE.equals(tag.from().kind()))
                continue;
            t.append("  ").append(tag.name()).append('\t');
            String from = tag.from().name();
            switch (images) {
                case COMMITS ->
                        t.append(tag.annotation(ImageReferences.SOURCE_LOCATION))
                                .append('\t')
                                .append(tag.annotation(ImageReferences.COMMIT_ID));
                case PULLSPECS -> t.append(from);
                // the reference's digest, else the whole name, as oc shows it
                case DIGESTS ->
                        t.append(
                                from.contains("@")
                                        ? from.substring(from.lastIndexOf('@') + 1)
                                        : from);
            }
            t.append('\n');
        }
        return new Tabwriter(0, 1).write(t.toString()).flush();
    }
}
