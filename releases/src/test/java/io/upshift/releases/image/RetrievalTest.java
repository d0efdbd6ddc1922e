package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.testkit.LocalRegistry;
import io.upshift.testkit.RawImages;
import io.upshift.testkit.RawImages.Entry;
import io.upshift.testkit.TestPayloads;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Retrieving release images as a cluster does, from a real registry: only the layers that hold the
 * payload, the cluster's architecture from a manifest list, mirrors before the source, logins that
 * a registry refuses.
 */
@Tag("e2e")
class RetrievalTest {

    /** The base layer's size: {@code -Dupshift.baseMB=200} for the issue's benchmark. */
    private static final int BASE_MB = Integer.getInteger("upshift.baseMB", 16);

    @TempDir static Path shared;
    @TempDir Path dir;

    static LocalRegistry registry;
    static LocalRegistry locked;
    static RawImages raw;
    static byte[] base;
    static byte[] payloadLayer;

    @BeforeAll
    static void start() throws Exception {
        registry = LocalRegistry.start(Files.createDirectories(shared.resolve("open")), null, null);
        locked =
                LocalRegistry.start(
                        Files.createDirectories(shared.resolve("locked")), "admin", "s3cret");
        raw = new RawImages(registry.host(), null, null);
        byte[] noise = new byte[BASE_MB << 20];
        new SplittableRandom(7).nextBytes(noise);
        // a RHEL-like base: absolute links where the payload is not, and a file the payload would
        // not want
        base =
                RawImages.layer(
                        List.of(
                                Entry.symlink(
                                        "etc/alternatives/java", "/usr/lib/jvm/java-17/bin/java"),
                                Entry.symlink("usr/bin/java", "/etc/alternatives/java"),
                                Entry.file("usr/lib/big", noise)));
        Path work = Files.createDirectories(shared.resolve("work"));
        BuiltImage built =
                ImageBuilder.build(
                        TestPayloads.write(shared.resolve("src"), "1.0.0", 40, 100_000),
                        "1.0.0",
                        null,
                        work,
                        w -> {});
        payloadLayer = Files.readAllBytes(built.layer());
    }

    @AfterAll
    static void stop() {
        registry.close();
        locked.close();
    }

    private static Releases releases(RegistryAccess access) {
        return new Releases(access, w -> {});
    }

    private static final RegistryAccess AMD64 =
            RegistryAccess.of(DockerCredentials.none(), false).withArchitecture("amd64");

    @Test
    void aPayloadOnTopOfABigBaseIsReadFromItsOwnLayerAloneAndTheBaseLinksAreIgnored()
            throws Exception {
        RawImages.Pushed image =
                raw.image("upshift/release", "layered", "amd64", List.of(base, payloadLayer));
        ImageRef ref = ImageRef.parse(registry.host() + "/upshift/release@" + image.digest());
        Releases.Pulled pulled =
                releases(AMD64).pull(ref, dir.resolve("payload"), ImageStore.Progress.NONE);
        System.out.println("layered image (" + BASE_MB + " MB base): " + pulled.summary());
        assertThat(pulled.layersRead()).isEqualTo(1);
        assertThat(pulled.bytesFetched()).isEqualTo(payloadLayer.length);
        assertThat(pulled.image().size()).isEqualTo(base.length + payloadLayer.length);
        assertThat(dir.resolve("payload/release-manifests/release-metadata")).exists();
        assertThat(dir.resolve("payload/etc")).doesNotExist();
    }

    @Test
    void withoutOpaqueWhiteoutsEveryLayerIsReadAndALowerPayloadFileStillShows() throws Exception {
        byte[] lower =
                RawImages.layer(
                        List.of(
                                Entry.file(
                                        "release-manifests/0000_90_low_x.yaml",
                                        "apiVersion: v1\n"
                                                + "kind: Namespace\n"
                                                + "metadata:\n"
                                                + "  name: low\n")));
        byte[] top =
                RawImages.layer(
                        List.of(
                                Entry.file(
                                        "release-manifests/release-metadata",
                                        "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\"1.0.1\",\"previous\":[],\"metadata\":{}}")));
        RawImages.Pushed image =
                raw.image("upshift/release", "plain", "amd64", List.of(base, lower, top));
        Releases.Pulled pulled =
                releases(AMD64)
                        .pull(
                                ImageRef.parse(registry.host() + "/upshift/release:plain"),
                                dir.resolve("p"),
                                ImageStore.Progress.NONE);
        assertThat(pulled.layersRead()).isEqualTo(3);
        assertThat(pulled.image().digest()).isEqualTo(image.digest());
        assertThat(dir.resolve("p/release-manifests/0000_90_low_x.yaml")).exists();
    }

    /**
     * A whiteout of a payload directory hides what lower layers put there, never what its own layer
     * puts there, before it or after it (the image spec's rule); it seals the directory, so the
     * layer is read alone.
     */
    @Test
    void aWhiteoutOfTheDirectoryHidesLowerLayersOnlyWhereverItStandsInItsLayer() throws Exception {
        byte[] lower =
                RawImages.layer(
                        List.of(
                                Entry.file(
                                        "release-manifests/0000_90_low_x.yaml",
                                        "apiVersion: v1\n"
                                                + "kind: Namespace\n"
                                                + "metadata:\n"
                                                + "  name: low\n"),
                                Entry.file("manifests/0000_00_low.yaml", "kind: ConfigMap\n")));
        String metadata =
                "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\"1.0.1\",\"previous\":[],\"metadata\":{}}";
        byte[] whiteoutFirst =
                RawImages.layer(
                        List.of(
                                Entry.file(".wh.release-manifests", ""),
                                Entry.directory("release-manifests"),
                                Entry.file("release-manifests/release-metadata", metadata),
                                Entry.file(".wh.manifests", "")));
        byte[] whiteoutLast =
                RawImages.layer(
                        List.of(
                                Entry.file("release-manifests/release-metadata", metadata),
                                Entry.file(".wh.release-manifests", ""),
                                Entry.file(".wh.manifests", "")));
        int n = 0;
        for (byte[] top : List.of(whiteoutFirst, whiteoutLast)) {
            raw.image("upshift/release", "sealed-" + n, "amd64", List.of(base, lower, top));
            Path to = dir.resolve("sealed-" + n);
            Releases.Pulled pulled =
                    releases(AMD64)
                            .pull(
                                    ImageRef.parse(
                                            registry.host() + "/upshift/release:sealed-" + n),
                                    to,
                                    ImageStore.Progress.NONE);
            assertThat(pulled.layersRead()).as("layers read").isEqualTo(1);
            assertThat(to.resolve("release-manifests/release-metadata")).exists();
            assertThat(to.resolve("release-manifests/0000_90_low_x.yaml")).doesNotExist();
            assertThat(to.resolve("manifests/0000_00_low.yaml")).doesNotExist();
            n++;
        }
    }

    @Test
    void anImageWithoutReleaseManifestsIsNotARelease() throws Exception {
        raw.image(
                "upshift/release",
                "empty",
                "amd64",
                List.of(
                        base,
                        RawImages.layer(
                                List.of(Entry.file("manifests/a.yaml", "kind: ConfigMap\n")))));
        assertThatThrownBy(
                        () ->
                                releases(AMD64)
                                        .pull(
                                                ImageRef.parse(
                                                        registry.host() + "/upshift/release:empty"),
                                                dir.resolve("p"),
                                                ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.PAYLOAD_NOT_FOUND);
                            assertThat(e.getMessage()).contains("release-manifests/");
                        });
        assertThat(dir.resolve("p")).doesNotExist();
    }

    @Test
    void aManifestListYieldsTheClusterArchitectureAndKeepsItsOwnDigest() throws Exception {
        RawImages.Pushed amd = raw.image("upshift/multi", "amd64", "amd64", List.of(payloadLayer));
        RawImages.Pushed s390 = raw.image("upshift/multi", "s390x", "s390x", List.of(base));
        Map<String, RawImages.Pushed> entries = new LinkedHashMap<>();
        entries.put("s390x", s390);
        entries.put("amd64", amd);
        RawImages.Pushed list = raw.index("upshift/multi", "1.0.0", entries);
        ImageRef ref = ImageRef.parse(registry.host() + "/upshift/multi@" + list.digest());
        Releases.Pulled pulled =
                releases(AMD64).pull(ref, dir.resolve("p"), ImageStore.Progress.NONE);
        assertThat(pulled.image().pullspec())
                .isEqualTo(registry.host() + "/upshift/multi@" + list.digest());
        assertThat(pulled.bytesFetched()).isEqualTo(payloadLayer.length);
        assertThatThrownBy(
                        () ->
                                releases(AMD64.withArchitecture("arm64"))
                                        .pull(ref, dir.resolve("q"), ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.ARCHITECTURE_MISSING);
                            assertThat(e.getMessage())
                                    .contains("linux/s390x, linux/amd64")
                                    .contains("no image for linux/arm64");
                        });
        assertThat(dir.resolve("q")).doesNotExist();
    }

    @Test
    void aMirrorThatAnswers404IsPassedForTheSourceUnlessTheSourceIsForbidden() throws Exception {
        RawImages.Pushed image = raw.image("upshift/release", "m", "amd64", List.of(payloadLayer));
        ImageRef ref = ImageRef.parse(registry.host() + "/upshift/release@" + image.digest());
        RegistryMirrors.Rule toNowhere =
                new RegistryMirrors.Rule(
                        registry.host() + "/upshift", List.of(registry.host() + "/nowhere"), false);
        Releases.Pulled pulled =
                releases(AMD64.withMirrors(new RegistryMirrors(List.of(toNowhere), List.of())))
                        .pull(ref, dir.resolve("p"), ImageStore.Progress.NONE);
        assertThat(pulled.image().location().repository()).isEqualTo("upshift/release");
        assertThat(pulled.image().pullspec()).isEqualTo(ref.toString());

        RegistryMirrors.Rule never =
                new RegistryMirrors.Rule(
                        registry.host() + "/upshift", List.of(registry.host() + "/nowhere"), true);
        assertThatThrownBy(
                        () ->
                                releases(
                                                AMD64.withMirrors(
                                                        new RegistryMirrors(
                                                                List.of(never), List.of())))
                                        .pull(ref, dir.resolve("q"), ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.IMAGE_NOT_FOUND);
                            assertThat(e.getMessage()).contains("nowhere/release");
                        });
    }

    @Test
    void aDigestMirrorThatHasTheImageServesItAndTagMirrorsServeOnlyTags() throws Exception {
        RawImages.Pushed image =
                raw.image("mirror/upshift/release", "x", "amd64", List.of(payloadLayer));
        // the source repository does not have it: only the mirror can answer
        ImageRef byDigest =
                ImageRef.parse(registry.host() + "/upshift/elsewhere@" + image.digest());
        RegistryMirrors.Rule rule =
                new RegistryMirrors.Rule(
                        registry.host() + "/upshift/elsewhere",
                        List.of(registry.host() + "/mirror/upshift/release"),
                        false);
        Releases.Pulled pulled =
                releases(AMD64.withMirrors(new RegistryMirrors(List.of(rule), List.of())))
                        .pull(byDigest, dir.resolve("p"), ImageStore.Progress.NONE);
        assertThat(pulled.image().location().repository()).isEqualTo("mirror/upshift/release");
        assertThat(pulled.image().pullspec()).isEqualTo(byDigest.toString());
        // the same rule as a digest rule does nothing for a tag; as a tag rule it does
        ImageRef byTag = ImageRef.parse(registry.host() + "/upshift/elsewhere:x");
        assertThatThrownBy(
                        () ->
                                releases(
                                                AMD64.withMirrors(
                                                        new RegistryMirrors(
                                                                List.of(rule), List.of())))
                                        .resolve(byTag))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.IMAGE_NOT_FOUND));
        assertThat(
                        releases(AMD64.withMirrors(new RegistryMirrors(List.of(), List.of(rule))))
                                .resolve(byTag)
                                .digest())
                .isEqualTo(image.digest());
    }

    @Test
    void aRefusedLoginIsUnauthorizedAndNamesTheRegistry() throws Exception {
        RawImages.Pushed image =
                new RawImages(locked.host(), "admin", "s3cret")
                        .image("upshift/release", "1", "amd64", List.of(payloadLayer));
        ImageRef ref = ImageRef.parse(locked.host() + "/upshift/release@" + image.digest());
        DockerCredentials expired =
                DockerCredentials.parse(
                        ("{\"auths\":{\""
                                        + locked.host()
                                        + "\":{\"auth\":\""
                                        + Base64.getEncoder()
                                                .encodeToString(
                                                        "admin:expired"
                                                                .getBytes(StandardCharsets.UTF_8))
                                        + "\"}}}")
                                .getBytes(StandardCharsets.UTF_8),
                        "test secret");
        assertThatThrownBy(
                        () ->
                                releases(AMD64.withCredentials(expired))
                                        .pull(ref, dir.resolve("p"), ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.REGISTRY_UNAUTHORIZED);
                            assertThat(e.getMessage())
                                    .contains(locked.host())
                                    .contains("HTTP 401")
                                    .contains("wrong or expired");
                        });
        DockerCredentials good =
                DockerCredentials.parse(
                        ("{\"auths\":{\""
                                        + locked.host()
                                        + "\":{\"auth\":\""
                                        + Base64.getEncoder()
                                                .encodeToString(
                                                        "admin:s3cret"
                                                                .getBytes(StandardCharsets.UTF_8))
                                        + "\"}}}")
                                .getBytes(StandardCharsets.UTF_8),
                        "test secret");
        assertThat(
                        releases(AMD64.withCredentials(good))
                                .pull(ref, dir.resolve("p"), ImageStore.Progress.NONE)
                                .layersRead())
                .isEqualTo(1);
    }
}
