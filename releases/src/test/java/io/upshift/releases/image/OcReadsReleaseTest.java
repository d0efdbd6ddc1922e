package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.releases.payload.PayloadDir;
import io.upshift.testkit.LocalRegistry;
import io.upshift.testkit.RawImages;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * OpenShift's own {@code oc} reads Upshift's release images as its own: {@code oc adm release info}
 * (with {@code --commits} and {@code --pullspecs}, whose listings Upshift prints byte for byte) and
 * {@code oc adm release extract}, showing the release's creation time. Runs the {@code oc} named by
 * {@code $UPSHIFT_OC}, else the one on PATH; skipped when there is none.
 */
@Tag("e2e")
class OcReadsReleaseTest {

    private static final Path FIXTURE =
            Path.of(
                    System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                    "openshift-payload-4.19");

    static Path oc;
    static LocalRegistry registry;

    @TempDir static Path home;

    @TempDir Path dir;

    private final Releases releases = new Releases(DockerCredentials.none(), false, w -> {});

    @BeforeAll
    static void start() throws Exception {
        oc = findOc();
        Assumptions.assumeTrue(oc != null, "OpenShift's oc is not on PATH nor at $UPSHIFT_OC");
        registry =
                LocalRegistry.start(Files.createDirectories(home.resolve("registry")), null, null);
    }

    @AfterAll
    static void stop() {
        if (registry != null) registry.close();
    }

    @Test
    void ocReadsAndExtractsAReleaseLaidOnAnotherImage() throws Exception {
        Path base = PayloadDir.at(dir.resolve("base")).version("1.0.0").write();
        ResolvedImage baseImage =
                releases.publish(base, "1.0.0", List.of(), ref("upshift/base:1.0.0"), (n, t) -> {});
        Path payload =
                PayloadDir.at(dir.resolve("payload"))
                        .version("1.1.0")
                        .configMap("0000_50_hello_01_configmap.yaml", "hello")
                        .write();
        Files.write(
                payload.resolve("release-manifests/image-references"),
                new ImageReferences(
                                "1.1.0",
                                null,
                                Map.of(),
                                List.of(
                                        new ImageReferences.Tag(
                                                "hello-operator",
                                                Map.of(
                                                        ImageReferences.SOURCE_LOCATION,
                                                        "https://github.com/example/hello",
                                                        ImageReferences.COMMIT_ID,
                                                        "4b825dc642cb6eb9a060e54bf8d69288fbee4904"),
                                                new ImageReferences.From(
                                                        "DockerImage",
                                                        "quay.example/hello@sha256:"
                                                                + "a".repeat(64))),
                                        ImageReferences.Tag.image(
                                                "cli",
                                                "quay.example/cli@sha256:" + "b".repeat(64))))
                        .toJson());
        Instant created = Instant.parse("2026-03-04T05:06:07Z");
        ResolvedImage release =
                releases.publish(
                        payload,
                        "1.1.0",
                        List.of("1.0.0"),
                        created,
                        ImageRef.parse("docker://" + baseImage.pullspec()),
                        ref("upshift/release:1.1.0"),
                        (n, t) -> {});
        assertThat(release.layers()).hasSize(2);
        checkWithOc(release, "upshift/release:1.1.0", created);
    }

    @Test
    void ocReadsAndExtractsTheReleaseOfARealOpenShiftPayload() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(FIXTURE), "shared fixtures not present");
        byte[] refs = Files.readAllBytes(FIXTURE.resolve("release-manifests/image-references"));
        ResolvedImage release =
                releases.publish(
                        FIXTURE, "4.19.0", null, ref("upshift/release:4.19.0"), (n, t) -> {});
        Path extracted =
                checkWithOc(
                        release,
                        "upshift/release:4.19.0",
                        ImageReferences.parse(refs, "image-references").created());
        // oc adm release new wrote the payload's files: Upshift writes them back byte for byte
        assertThat(extracted.resolve("image-references")).hasBinaryContent(refs);
        assertThat(extracted.resolve("release-metadata"))
                .hasBinaryContent(
                        Files.readAllBytes(FIXTURE.resolve("release-manifests/release-metadata")));
    }

    /**
     * oc reads an Upshift release of the 4.19 payload exactly as the release {@code oc adm release
     * new} builds from the same payload on the same base: {@code oc adm release info} (plain,
     * {@code --commits}, {@code --pullspecs}) prints the same lines, but the digests and the
     * creation time (oc stamps its release with its clock).
     */
    @Test
    void ocPrintsTheSameForUpshiftsReleaseOfTheRealPayloadAsForItsOwn() throws Exception {
        Assumptions.assumeTrue(Files.isDirectory(FIXTURE), "shared fixtures not present");
        RawImages.Pushed base =
                new RawImages(registry.host(), null, null)
                        .image(
                                "upshift/base",
                                "plain",
                                "amd64",
                                List.of(
                                        RawImages.layer(
                                                List.of(
                                                        RawImages.Entry.file(
                                                                "etc/os-release", "ID=base\n")))));
        String baseRef = registry.host() + "/upshift/base@" + base.digest();
        releases.publish(
                FIXTURE,
                "4.19.0",
                null,
                null,
                ImageRef.parse("docker://" + baseRef),
                ref("upshift/release:4.19.0"),
                (n, t) -> {});

        // oc's input: the payload's manifests as one image's, which names every tag of the
        // release's image-references (so oc keeps them all and changes no pull spec)
        Path from = dir.resolve("oc-input"), manifests = from.resolve("payload");
        Files.createDirectories(manifests);
        Path refs = FIXTURE.resolve("release-manifests/image-references");
        Files.copy(refs, from.resolve("image-references"));
        try (var files = Files.list(FIXTURE.resolve("release-manifests"))) {
            for (Path f : files.toList()) Files.copy(f, manifests.resolve(f.getFileName()));
        }
        Files.delete(manifests.resolve("release-metadata"));
        ReleaseMetadata metadata =
                ReleaseMetadata.parse(
                        Files.readAllBytes(FIXTURE.resolve("release-manifests/release-metadata")),
                        "release-metadata");
        oc(
                "adm",
                "release",
                "new",
                "--insecure=true",
                "--from-dir",
                from.toString(),
                "--name",
                "4.19.0",
                "--previous",
                String.join(",", metadata.previous()),
                "--include",
                "cluster-version-operator",
                "--metadata",
                Mappers.JSON.writeValueAsString(metadata.metadata()),
                "--to-image-base",
                baseRef,
                "--to-image",
                registry.host() + "/upshift/release:oc-4.19.0");

        for (String listing : List.of("", "--commits", "--pullspecs")) {
            List<String> args =
                    new ArrayList<>(List.of("adm", "release", "info", "--insecure=true"));
            if (!listing.isEmpty()) args.add(listing);
            List<String> ours = new ArrayList<>(args), theirs = new ArrayList<>(args);
            ours.add(registry.host() + "/upshift/release:4.19.0");
            theirs.add(registry.host() + "/upshift/release:oc-4.19.0");
            String upshiftsRelease = oc(ours.toArray(String[]::new));
            assertThat(masked(upshiftsRelease))
                    .as("oc adm release info " + listing)
                    .isEqualTo(masked(oc(theirs.toArray(String[]::new))));
            assertThat(upshiftsRelease)
                    .contains("\nManifests: 434\n")
                    .contains("kubernetes 1.32.5");
        }
    }

    /** oc's release info with its digests and its creation time masked. */
    private static String masked(String info) {
        return info.replaceAll("sha256:[0-9a-f]{64}", "sha256:…")
                .replaceAll("(?m)^(Created: +)\\S+$", "$1…");
    }

    /** Runs oc's info (plain, --commits, --pullspecs) and extract on the release; the extracted. */
    private Path checkWithOc(ResolvedImage release, String tag, Instant created) throws Exception {
        String byTag = registry.host() + "/" + tag;
        String time = created.toString();
        ReleaseInfo upshift = releases.info(ImageRef.parse("docker://" + byTag));
        assertThat(upshift.createdText()).isEqualTo(time);

        String info = oc("adm", "release", "info", "--insecure=true", byTag);
        assertThat(info)
                .containsPattern("(?m)^Digest: +" + Pattern.quote(release.digest()) + "$")
                .containsPattern("(?m)^Created: +" + Pattern.quote(time) + "$")
                .doesNotContain("Metadata files:");
        // upshift release info prints oc's text first, byte for byte, then its own sections
        assertThat(upshift.render()).startsWith(info);
        assertThat(upshift.render(ReleaseInfo.Images.COMMITS))
                .startsWith(oc("adm", "release", "info", "--insecure=true", "--commits", byTag));
        assertThat(upshift.render(ReleaseInfo.Images.PULLSPECS))
                .startsWith(oc("adm", "release", "info", "--insecure=true", "--pullspecs", byTag));

        Path extracted = dir.resolve("extracted-" + release.digest().substring(7, 15));
        assertThat(
                        oc(
                                "adm",
                                "release",
                                "extract",
                                "--insecure=true",
                                "--to",
                                extracted + "",
                                byTag))
                .contains(
                        "Extracted release payload from digest "
                                + release.digest()
                                + " created at "
                                + time);
        Path byDigest = dir.resolve("by-digest-" + release.digest().substring(7, 15));
        assertThat(
                        oc(
                                "adm",
                                "release",
                                "extract",
                                "--insecure=true",
                                "--to",
                                byDigest + "",
                                release.pullspec()))
                .contains("Extracted release payload created at " + time);

        Path ours = dir.resolve("ours-" + release.digest().substring(7, 15));
        releases.extract(ImageRef.parse("docker://" + byTag), ours, (n, t) -> {});
        List<String> names;
        try (var files = Files.list(ours.resolve("release-manifests"))) {
            names = files.map(p -> p.getFileName().toString()).sorted().toList();
        }
        List<String> theirs;
        try (var files = Files.list(extracted)) {
            theirs = files.map(p -> p.getFileName().toString()).sorted().toList();
        }
        assertThat(theirs).isEqualTo(names).contains("image-references", "release-metadata");
        // oc writes the manifests again as it parsed them, and the two files as they are
        for (String name : List.of("image-references", "release-metadata"))
            assertThat(extracted.resolve(name))
                    .as(name)
                    .hasSameBinaryContentAs(ours.resolve("release-manifests").resolve(name));
        return extracted;
    }

    private static ImageRef ref(String tag) throws Exception {
        return ImageRef.parse("docker://" + registry.host() + "/" + tag);
    }

    /**
     * Runs oc, its home a temporary one; what it printed (stdout and stderr), once it succeeded.
     */
    private static String oc(String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(oc.toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        pb.environment().remove("KUBECONFIG");
        Path log = Files.createTempFile(home, "oc-", ".log");
        Process p = pb.redirectOutput(log.toFile()).start();
        if (!p.waitFor(3, TimeUnit.MINUTES)) {
            p.destroyForcibly();
            throw new AssertionError("oc " + String.join(" ", args) + " did not end in 3 minutes");
        }
        String out = Files.readString(log, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("oc " + String.join(" ", args) + "\n" + out).isZero();
        return out;
    }

    /** $UPSHIFT_OC, else oc on PATH; null when neither. */
    private static Path findOc() {
        String named = System.getenv("UPSHIFT_OC");
        if (named != null && !named.isEmpty())
            return Files.isExecutable(Path.of(named)) ? Path.of(named) : null;
        for (String d : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(d.isEmpty() ? "." : d, "oc");
            if (Files.isExecutable(candidate) && !Files.isDirectory(candidate)) return candidate;
        }
        return null;
    }
}
