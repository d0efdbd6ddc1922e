package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.testkit.LocalRegistry;
import io.upshift.testkit.TestPayloads;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Release images through Debian's real docker-registry on loopback. */
@Tag("e2e")
class RegistryRoundTripTest {

    static LocalRegistry open, locked;

    @TempDir static Path registries;

    @TempDir Path dir;

    @BeforeAll
    static void start() throws Exception {
        open = LocalRegistry.start(Files.createDirectories(registries.resolve("open")), null, null);
        locked =
                LocalRegistry.start(
                        Files.createDirectories(registries.resolve("locked")), "admin", "s3cret");
    }

    @AfterAll
    static void stop() {
        if (open != null) open.close();
        if (locked != null) locked.close();
    }

    private final Releases releases = new Releases(DockerCredentials.none(), false, w -> {});

    @Test
    void publishThenInfoAndExtractByTagAndDigest() throws Exception {
        Path payload = TestPayloads.write(dir.resolve("src"), "4.15.2", 6, 10);
        ImageRef ref = ImageRef.parse("docker://" + open.host() + "/upshift/release:4.15.2");
        List<Long> progress = new ArrayList<>();
        ResolvedImage pushed =
                releases.publish(
                        payload,
                        "4.15.2",
                        List.of("4.15.1", "4.14.9"),
                        ref,
                        (n, t) -> progress.add(n));
        assertThat(pushed.digest()).matches("sha256:[0-9a-f]{64}");

        // reproducible: the same payload publishes to the same digest
        assertThat(
                        releases.publish(
                                        payload,
                                        "4.15.2",
                                        List.of("4.15.1", "4.14.9"),
                                        ref,
                                        ImageStore.Progress.NONE)
                                .digest())
                .isEqualTo(pushed.digest());

        ReleaseInfo info = releases.info(ref);
        assertThat(info.image().digest()).isEqualTo(pushed.digest());
        assertThat(info.payload().version()).isEqualTo("4.15.2");
        // written sorted, as oc adm release new writes them
        assertThat(info.payload().metadata().previous()).containsExactly("4.14.9", "4.15.1");
        assertThat(info.manifestsByRunLevel())
                .containsExactly(
                        Map.entry("00", 1),
                        Map.entry("10", 2),
                        Map.entry("20", 2),
                        Map.entry("30", 2));
        assertThat(info.render())
                .contains("Name:      4.15.2\nDigest:    " + pushed.digest())
                .containsPattern("\n  cluster-version-operator +sha256:[0-9a-f]{64}\n")
                .contains("  run-level 10: 2\n");
        assertThat(info.render(ReleaseInfo.Images.PULLSPECS))
                .containsPattern("\n  cluster-version-operator +quay.example/cvo@sha256:");
        // the operator's own manifests are templated with the pullspec by digest at load time
        assertThat(info.payload().manifests().get(0).object().toString())
                .contains(open.host() + "/upshift/release@" + pushed.digest());

        Path target = dir.resolve("extracted");
        releases.extract(
                ImageRef.parse(open.host() + "/upshift/release@" + pushed.digest()),
                target,
                ImageStore.Progress.NONE);
        assertThat(
                        Files.readString(
                                target.resolve(
                                        "release-manifests/0000_10_component0_00_config.yaml")))
                .isEqualTo(
                        Files.readString(
                                payload.resolve(
                                        "release-manifests/0000_10_component0_00_config.yaml")));
        assertThat(Files.readString(target.resolve("release-manifests/release-metadata")))
                .contains("\n  \"version\": \"4.15.2\",\n");
    }

    @Test
    void anImageThatIsNotThereIsNotFound() throws Exception {
        ImageRef missing = ImageRef.parse("docker://" + open.host() + "/upshift/none:1.0.0");
        assertThatThrownBy(
                        () -> releases.extract(missing, dir.resolve("t"), ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.IMAGE_NOT_FOUND);
                            assertThat(e.getMessage())
                                    .contains(open.host() + "/upshift/none:1.0.0");
                        });
        assertThat(dir.resolve("t")).doesNotExist();
    }

    @Test
    void aLockedRegistryNeedsCredentialsFromADockerConfig() throws Exception {
        Path payload = TestPayloads.write(dir.resolve("src"), "1.0.0", 2, 0);
        ImageRef ref = ImageRef.parse("docker://" + locked.host() + "/upshift/release:1.0.0");
        assertThatThrownBy(
                        () ->
                                releases.publish(
                                        payload, "1.0.0", null, ref, ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.REGISTRY_UNAUTHORIZED);
                            assertThat(e.getMessage()).contains(locked.host());
                        });
        Path config =
                Files.writeString(
                        dir.resolve("config.json"),
                        "{\"auths\":{\""
                                + locked.host()
                                + "\":{\"auth\":\""
                                + Base64.getEncoder()
                                        .encodeToString(
                                                "admin:s3cret".getBytes(StandardCharsets.UTF_8))
                                + "\"}}}");
        Releases authed = new Releases(DockerCredentials.load(config), false, w -> {});
        ResolvedImage pushed =
                authed.publish(payload, "1.0.0", null, ref, ImageStore.Progress.NONE);
        assertThat(authed.resolve(ref).digest()).isEqualTo(pushed.digest());
        assertThatThrownBy(() -> releases.resolve(ref))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.REGISTRY_UNAUTHORIZED));
    }

    @Test
    void anInvalidPayloadIsRefusedBeforeAnythingIsPublished() throws Exception {
        Path payload = TestPayloads.write(dir.resolve("src"), "1.0.0", 1, 0);
        Files.writeString(
                payload.resolve("release-manifests/0000_50_bad_x.yaml"), "kind: [unclosed\n");
        ImageRef ref = ImageRef.parse("docker://" + open.host() + "/upshift/bad:1.0.0");
        assertThatThrownBy(
                        () ->
                                releases.publish(
                                        payload, "1.0.0", null, ref, ImageStore.Progress.NONE))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.MANIFEST_INVALID);
                            assertThat(e.getMessage())
                                    .contains("release-manifests/0000_50_bad_x.yaml");
                        });
        assertThatThrownBy(() -> releases.resolve(ref))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.IMAGE_NOT_FOUND));
    }
}
