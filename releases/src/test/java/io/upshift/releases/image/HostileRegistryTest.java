package io.upshift.releases.image;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.testkit.HostileServer;
import io.upshift.testkit.TestPayloads;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registry answering as an attacker would, to pulls (manifests, tokens, blobs: Upshift's own
 * reads) and to pushes (jib-core's): each answer fails at its bound, in bytes or in time, naming
 * the registry and the limit, and is read no further.
 */
@Tag("e2e")
class HostileRegistryTest {

    static final long GIB = 1L << 30;

    /** Short enough for a test to reach: a 2 s exchange, a blob 2 s and 1 s a MiB. */
    static final RegistryLimits QUICK =
            new RegistryLimits(4 << 20, 1 << 20, 1 << 20, Duration.ofSeconds(2), 1 << 20);

    @TempDir Path dir;
    HostileServer registry;
    RegistryStore store;
    ImageRef ref;

    @BeforeEach
    void start() throws Exception {
        registry = HostileServer.start();
        store = new RegistryStore(RegistryAccess.of(DockerCredentials.none(), false), QUICK);
        ref = ImageRef.parse(registry.host() + "/ocp/release:4.1.0");
    }

    @AfterEach
    void stop() throws Exception {
        registry.close();
    }

    /** {@code call}'s refusal, once it came (far within the test's own bound). */
    static ReleaseException refusal(Callable<?> call) throws Exception {
        CompletableFuture<ReleaseException> f =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                call.call();
                                return null;
                            } catch (ReleaseException e) {
                                return e;
                            } catch (Exception e) {
                                throw new AssertionError(e);
                            }
                        });
        // far above every bound tested: reaching it means one did not hold
        await().atMost(Duration.ofSeconds(60)).until(f::isDone);
        assertThat(f.get()).as("refused").isNotNull();
        return f.get();
    }

    void readNoFurther() {
        await("the registry sees the client hang up")
                .atMost(Duration.ofSeconds(20))
                .until(() -> registry.openConnections() == 0);
        assertThat(registry.bodyBytesSent()).isLessThan(64L << 20);
    }

    @Test
    void aManifestLargerThanItsLimitIsRefusedAtIt() throws Exception {
        registry.answer("/v2/ocp/release/manifests/", new HostileServer.Huge(GIB, false));
        ReleaseException e = refusal(() -> store.resolve(ref));
        assertThat(e.reason()).isEqualTo(Reason.IMAGE_INVALID);
        assertThat(e.getMessage())
                .isEqualTo(
                        "registry "
                                + registry.host()
                                + ": the manifest 4.1.0 of "
                                + ref
                                + ": 127.0.0.1: the answer to GET http://"
                                + registry.host()
                                + "/v2/ocp/release/manifests/4.1.0 is larger than 4194304 bytes"
                                + " (4 MiB), its limit");
        readNoFurther();
    }

    @Test
    void aManifestSentAByteAtATimeEndsAtTheExchangesLimit() throws Exception {
        registry.answer(
                "/v2/ocp/release/manifests/",
                new HostileServer.Trickle(Duration.ofMillis(300), false));
        ReleaseException e = refusal(() -> store.resolve(ref));
        assertThat(e.reason()).isEqualTo(Reason.REGISTRY_FAILED);
        assertThat(e.getMessage()).endsWith("within 2s, the limit for one answer");

        registry.answer(
                "/v2/ocp/release/manifests/",
                new HostileServer.Trickle(Duration.ofMillis(300), true));
        e = refusal(() -> store.resolve(ref));
        assertThat(e.getMessage())
                .startsWith("cannot reach registry " + registry.host() + " for the manifest 4.1.0")
                .endsWith("within 2s, the limit for one answer");
    }

    @Test
    void aTokenLargerThanItsLimitIsRefusedAtIt() throws Exception {
        challenge();
        registry.answer("/token", new HostileServer.Huge(GIB, false));
        ReleaseException e = refusal(() -> store.resolve(ref));
        assertThat(e.getMessage())
                .startsWith(
                        "cannot get a token for "
                                + ref
                                + " from "
                                + registry.url("/token")
                                + ": 127.0.0.1: the answer to GET "
                                + registry.url("/token"))
                .endsWith("is larger than 1048576 bytes (1 MiB), its limit");
        readNoFurther();
    }

    /** Every manifest asks for a bearer token from the registry's /token. */
    void challenge() {
        registry.answer(
                "/v2/",
                new HostileServer.Plain(
                        401,
                        "application/json",
                        "{}".getBytes(StandardCharsets.UTF_8),
                        Map.of(
                                "WWW-Authenticate",
                                "Bearer realm=\""
                                        + registry.url("/token")
                                        + "\",service=\"hostile\"")));
    }

    ResolvedImage image(ImageDescriptor layer) {
        return new ResolvedImage(
                ref,
                "sha256:" + "0".repeat(64),
                new ImageDescriptor(
                        "application/vnd.oci.image.config.v1+json", "sha256:" + "1".repeat(64), 2),
                List.of(layer));
    }

    @Test
    void aBlobLongerThanItsManifestSaysIsRefusedAtItsSize() throws Exception {
        registry.answer("/v2/ocp/release/blobs/", new HostileServer.Huge(GIB, false));
        ImageDescriptor layer =
                new ImageDescriptor(
                        "application/vnd.oci.image.layer.v1.tar+gzip",
                        "sha256:" + "2".repeat(64),
                        1000);
        Path target = dir.resolve("layer");
        ReleaseException e =
                refusal(
                        () -> {
                            store.fetch(image(layer), layer, target, ImageStore.Progress.NONE);
                            return null;
                        });
        assertThat(e.reason()).isEqualTo(Reason.BLOB_DIGEST_MISMATCH);
        assertThat(e.getMessage())
                .endsWith(
                        "/v2/ocp/release/blobs/sha256:"
                                + "2".repeat(64)
                                + " is larger than 1000 bytes, its limit");
        assertThat(target).doesNotExist();
        readNoFurther();
    }

    @Test
    void aBlobSentAByteAtATimeEndsAtItsDeadline() throws Exception {
        registry.answer(
                "/v2/ocp/release/blobs/", new HostileServer.Trickle(Duration.ofMillis(300), false));
        ImageDescriptor layer =
                new ImageDescriptor(
                        "application/vnd.oci.image.layer.v1.tar+gzip",
                        "sha256:" + "2".repeat(64),
                        1000);
        Path target = dir.resolve("layer");
        ReleaseException e =
                refusal(
                        () -> {
                            store.fetch(image(layer), layer, target, ImageStore.Progress.NONE);
                            return null;
                        });
        assertThat(e.reason()).isEqualTo(Reason.REGISTRY_FAILED);
        // 2 s, and 1 s for its 1000 bytes at 1 MiB a second
        assertThat(e.getMessage()).endsWith("within 3s, the limit for one answer");
        assertThat(target).doesNotExist();
    }

    @Test
    void aTagListLargerThanItsLimitIsRefusedAtIt() throws Exception {
        registry.answer("/v2/ocp/release/tags/list", new HostileServer.Huge(GIB, false));
        ReleaseException e =
                refusal(() -> new RegistryTags(DockerCredentials.none(), false).list(ref));
        assertThat(e.getMessage())
                .isEqualTo(
                        "cannot list tags of "
                                + ref.repositoryName()
                                + ": 127.0.0.1: the answer to GET http://"
                                + registry.host()
                                + "/v2/ocp/release/tags/list?n=1000 is larger than 4194304 bytes (4"
                                + " MiB), its limit");
        readNoFurther();
    }

    /** A small release image, built to be pushed. */
    BuiltImage built() throws Exception {
        Path payload = TestPayloads.write(dir.resolve("src"), "4.1.0", 1, 0);
        return ImageBuilder.build(
                payload,
                "4.1.0",
                List.of(),
                null,
                null,
                Files.createDirectories(dir.resolve("work")),
                w -> {});
    }

    @Test
    void aPushWhoseRegistryAnswersAByteAtATimeEndsAtTheOperationsLimit() throws Exception {
        BuiltImage image = built();
        registry.answer("/v2/", new HostileServer.Trickle(Duration.ofMillis(300), true));
        ReleaseException e = refusal(() -> store.push(image, ref, ImageStore.Progress.NONE));
        assertThat(e.reason()).isEqualTo(Reason.REGISTRY_FAILED);
        assertThat(e.getMessage())
                .endsWith(
                        registry.host()
                                + ": authenticating with "
                                + registry.host()
                                + " did not finish within 2s, the limit for authenticating with "
                                + registry.host());
    }

    @Test
    void aPushTokenLargerThanItsLimitIsRefusedAtIt() throws Exception {
        BuiltImage image = built();
        challenge();
        registry.answer("/token", new HostileServer.Huge(GIB, false, 200, "{\"token\":\""));
        ReleaseException e = refusal(() -> store.push(image, ref, ImageStore.Progress.NONE));
        assertThat(e.getMessage()).contains("is larger than 1048576 bytes (1 MiB), its limit");
        readNoFurther();
    }

    @Test
    void aPushErrorLargerThanItsLimitIsReadNoFurther() throws Exception {
        BuiltImage image = built();
        registry.answer(
                "/v2/", new HostileServer.Plain(200, "application/json", "{}".getBytes(UTF_8)));
        registry.answer("/v2/ocp/release/blobs/", new HostileServer.Huge(GIB, false, 500));
        ReleaseException e = refusal(() -> store.push(image, ref, ImageStore.Progress.NONE));
        // google-http-client reads an error's body into its message, and drops it when that
        // read fails: the answer is refused at its limit, its status said
        assertThat(e.getMessage())
                .isEqualTo(
                        "registry "
                                + registry.host()
                                + " answered HTTP 500 when asked to push to "
                                + ref);
        readNoFurther();
    }
}
