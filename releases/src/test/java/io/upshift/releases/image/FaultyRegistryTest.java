package io.upshift.releases.image;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.upshift.releases.image.Layers.Entry;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A registry that misbehaves on purpose: errors and connections closed mid-blob leave nothing
 * behind.
 */
@Tag("e2e")
class FaultyRegistryTest {

    enum Fault {
        NONE,
        BLOB_500,
        BLOB_CLOSED_MIDWAY,
        ALL_401
    }

    @TempDir Path dir;

    HttpServer server;
    PlainHttpFront front;
    volatile Fault fault = Fault.NONE;
    BuiltImage image;
    byte[] layer;

    @BeforeEach
    void start() throws Exception {
        StringBuilder big = new StringBuilder();
        for (int i = 0; i < 20000; i++)
            big.append("line ").append(i).append(" of a large manifest\n");
        layer =
                Layers.layer(
                        List.of(
                                Entry.file(
                                        "release-manifests/0000_10_a_big.yaml",
                                        "data: |\n" + big)));
        image = Layers.image(layer, Files.createDirectories(dir.resolve("work")));
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.createContext("/", this::handle);
        server.start();
        front = new PlainHttpFront(server.getAddress().getPort());
    }

    @AfterEach
    void stop() throws IOException {
        front.close();
        server.stop(0);
    }

    private void handle(HttpExchange x) throws IOException {
        String path = x.getRequestURI().getPath();
        if (fault == Fault.ALL_401) {
            x.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"test\"");
            send(
                    x,
                    401,
                    "{\"errors\":[{\"code\":\"UNAUTHORIZED\",\"message\":\"authentication required\"}]}"
                            .getBytes(UTF_8),
                    "application/json");
        } else if (path.equals("/v2/")) {
            send(x, 200, "{}".getBytes(UTF_8), "application/json");
        } else if (path.contains("/manifests/")) {
            x.getResponseHeaders().add("Docker-Content-Digest", image.digest());
            send(x, 200, image.manifest(), OciLayoutStore.MANIFEST_MEDIA_TYPE);
        } else if (path.endsWith(image.configDescriptor().digest())) {
            send(x, 200, image.config(), "application/octet-stream");
        } else if (path.endsWith(image.layerDescriptor().digest())) {
            if (fault == Fault.BLOB_500) {
                send(
                        x,
                        500,
                        "{\"errors\":[{\"code\":\"UNKNOWN\",\"message\":\"disk on fire\"}]}"
                                .getBytes(UTF_8),
                        "application/json");
            } else if (fault == Fault.BLOB_CLOSED_MIDWAY) {
                x.sendResponseHeaders(200, layer.length);
                OutputStream out = x.getResponseBody();
                out.write(layer, 0, layer.length / 3);
                out.flush();
                x.close(); // short of the announced length: the connection is dropped
            } else {
                send(x, 200, layer, "application/octet-stream");
            }
        } else {
            send(
                    x,
                    404,
                    "{\"errors\":[{\"code\":\"BLOB_UNKNOWN\"}]}".getBytes(UTF_8),
                    "application/json");
        }
    }

    private static void send(HttpExchange x, int status, byte[] body, String type)
            throws IOException {
        x.getResponseHeaders().add("Content-Type", type);
        x.sendResponseHeaders(status, body.length);
        x.getResponseBody().write(body);
        x.close();
    }

    private ReleaseException extractFails(Path target) {
        Releases releases = new Releases(DockerCredentials.none(), false, w -> {});
        try {
            releases.extract(
                    ImageRef.parse("docker://127.0.0.1:" + front.port() + "/upshift/release:1.0.0"),
                    target,
                    ImageStore.Progress.NONE);
        } catch (ReleaseException e) {
            return e;
        }
        throw new AssertionError("extraction succeeded");
    }

    private void assertNothingLeft(Path target) throws IOException {
        assertThat(target).doesNotExist();
        try (Stream<Path> s = Files.list(target.getParent())) {
            assertThat(s.filter(p -> p.getFileName().toString().contains("extract"))).isEmpty();
        }
    }

    @Test
    void theFakeRegistryServesAGoodImage() throws Exception {
        Path target = dir.resolve("ok");
        new Releases(DockerCredentials.none(), false, w -> {})
                .extract(
                        ImageRef.parse("127.0.0.1:" + front.port() + "/upshift/release:1.0.0"),
                        target,
                        ImageStore.Progress.NONE);
        assertThat(Files.size(target.resolve("release-manifests/0000_10_a_big.yaml")))
                .isGreaterThan(100_000);
    }

    @Test
    void aServerErrorIsReported() throws Exception {
        fault = Fault.BLOB_500;
        ReleaseException e = extractFails(dir.resolve("t"));
        assertThat(e.reason()).isEqualTo(Reason.REGISTRY_FAILED);
        assertThat(e.getMessage()).contains("HTTP 500");
        assertNothingLeft(dir.resolve("t"));
    }

    @Test
    void aConnectionClosedMidBlobIsATruncatedBlob() throws Exception {
        fault = Fault.BLOB_CLOSED_MIDWAY;
        ReleaseException e = extractFails(dir.resolve("t"));
        assertThat(e.reason()).isEqualTo(Reason.BLOB_TRUNCATED);
        assertThat(e.getMessage())
                .contains(image.layerDescriptor().digest())
                .contains(" of " + layer.length + " bytes");
        assertNothingLeft(dir.resolve("t"));
    }

    @Test
    void unauthorizedIsReported() throws Exception {
        fault = Fault.ALL_401;
        ReleaseException e = extractFails(dir.resolve("t"));
        assertThat(e.reason()).isEqualTo(Reason.REGISTRY_UNAUTHORIZED);
        assertNothingLeft(dir.resolve("t"));
    }

    @Test
    void aBadReferenceIsRejectedWithTheAcceptedForms() {
        assertThatThrownBy(() -> ImageRef.parse("not a reference"))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.REFERENCE_INVALID);
                            assertThat(e.getMessage()).contains("docker://HOST[:PORT]/REPO");
                        });
    }
}
