package io.upshift.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.zip.GZIPOutputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveOutputStream;

/**
 * Images a release builder would never make, pushed byte for byte to a registry on 127.0.0.1: any
 * layers, manifest lists of any architectures. For bad-input and layer-reading tests.
 */
public final class RawImages {

    /** A pushed manifest: its digest, size and media type, as a list entry names it. */
    public record Pushed(String digest, long size, String mediaType) {}

    /**
     * A tar entry: a file, a directory (name ending in /), or a symbolic link when {@code link} is
     * set.
     */
    public record Entry(String name, byte[] content, String link) {
        public static Entry file(String name, String content) {
            return new Entry(name, content.getBytes(StandardCharsets.UTF_8), null);
        }

        public static Entry file(String name, byte[] content) {
            return new Entry(name, content, null);
        }

        public static Entry symlink(String name, String target) {
            return new Entry(name, null, target);
        }

        public static Entry directory(String name) {
            return new Entry(name.endsWith("/") ? name : name + "/", null, null);
        }
    }

    private final HttpClient http = HttpClient.newHttpClient();
    private final String host;
    private final String authorization;

    /** Pushes to {@code host}; {@code user} null for an open registry. */
    public RawImages(String host, String user, String password) {
        this.host = host;
        this.authorization =
                user == null
                        ? null
                        : "Basic "
                                + Base64.getEncoder()
                                        .encodeToString(
                                                (user + ":" + password)
                                                        .getBytes(StandardCharsets.UTF_8));
    }

    /** A gzip tar of {@code entries}, in order. */
    public static byte[] layer(List<Entry> entries) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (OutputStream gz = new GZIPOutputStream(bytes);
                TarArchiveOutputStream tar = new TarArchiveOutputStream(gz)) {
            tar.setLongFileMode(TarArchiveOutputStream.LONGFILE_POSIX);
            for (Entry e : entries) {
                TarArchiveEntry t =
                        e.link() != null
                                ? new TarArchiveEntry(e.name(), TarArchiveEntry.LF_SYMLINK)
                                : new TarArchiveEntry(e.name());
                if (e.link() != null) t.setLinkName(e.link());
                else if (!e.name().endsWith("/")) t.setSize(e.content().length);
                tar.putArchiveEntry(t);
                if (e.content() != null) tar.write(e.content());
                tar.closeArchiveEntry();
            }
        }
        return bytes.toByteArray();
    }

    /**
     * An image of {@code layers} (bottom first) for linux/{@code arch}, tagged {@code tag} in
     * {@code repository}.
     */
    public Pushed image(String repository, String tag, String arch, List<byte[]> layers)
            throws IOException, InterruptedException {
        for (byte[] l : layers) blob(repository, l);
        byte[] config = config(arch, layers);
        blob(repository, config);
        return manifest(repository, tag, IMAGE_MANIFEST, imageManifest(config, layers));
    }

    /**
     * The same image written into the OCI image layout {@code layout} (made when missing), tagged
     * {@code tag}; {@code oci:LAYOUT@DIGEST} names it.
     */
    public static Pushed layout(Path layout, String tag, String arch, List<byte[]> layers)
            throws IOException {
        Path blobs = Files.createDirectories(layout.resolve("blobs/sha256"));
        byte[] config = config(arch, layers);
        byte[] manifest = imageManifest(config, layers);
        for (byte[] b : concat(layers, List.of(config, manifest)))
            Files.write(blobs.resolve(sha256(b).substring("sha256:".length())), b);
        Files.writeString(layout.resolve("oci-layout"), "{\"imageLayoutVersion\":\"1.0.0\"}");
        Files.writeString(
                layout.resolve("index.json"),
                "{\"schemaVersion\":2,\"manifests\":[{\"mediaType\":\""
                        + IMAGE_MANIFEST
                        + "\",\"digest\":\""
                        + sha256(manifest)
                        + "\",\"size\":"
                        + manifest.length
                        + ",\"annotations\":{\"org.opencontainers.image.ref.name\":\""
                        + tag
                        + "\"}}]}");
        return new Pushed(sha256(manifest), manifest.length, IMAGE_MANIFEST);
    }

    private static final String IMAGE_MANIFEST = "application/vnd.oci.image.manifest.v1+json";

    private static byte[] config(String arch, List<byte[]> layers) {
        StringBuilder diffIds = new StringBuilder();
        for (byte[] l : layers)
            diffIds.append(diffIds.isEmpty() ? "" : ",").append('"').append(sha256(l)).append('"');
        return ("{\"architecture\":\""
                        + arch
                        + "\",\"os\":\"linux\",\"rootfs\":{\"type\":\"layers\",\"diff_ids\":["
                        + diffIds
                        + "]}}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] imageManifest(byte[] config, List<byte[]> layers) {
        StringBuilder descriptors = new StringBuilder();
        for (byte[] l : layers)
            descriptors
                    .append(descriptors.isEmpty() ? "" : ",")
                    .append(
                            "{\"mediaType\":\"application/vnd.oci.image.layer.v1.tar+gzip\",\"digest\":\"")
                    .append(sha256(l))
                    .append("\",\"size\":")
                    .append(l.length)
                    .append('}');
        return ("{\"schemaVersion\":2,\"mediaType\":\""
                        + IMAGE_MANIFEST
                        + "\",\"config\":{\"mediaType\":"
                        + "\"application/vnd.oci.image.config.v1+json\",\"digest\":\""
                        + sha256(config)
                        + "\",\"size\":"
                        + config.length
                        + "},\"layers\":["
                        + descriptors
                        + "]}")
                .getBytes(StandardCharsets.UTF_8);
    }

    private static List<byte[]> concat(List<byte[]> a, List<byte[]> b) {
        List<byte[]> out = new ArrayList<>(a);
        out.addAll(b);
        return out;
    }

    /**
     * An OCI index of {@code images} by architecture, tagged {@code tag}; the images must be in
     * {@code repository}.
     */
    public Pushed index(String repository, String tag, Map<String, Pushed> images)
            throws IOException, InterruptedException {
        List<String> entries = new ArrayList<>();
        images.forEach(
                (arch, p) ->
                        entries.add(
                                "{\"mediaType\":\""
                                        + p.mediaType()
                                        + "\",\"digest\":\""
                                        + p.digest()
                                        + "\",\"size\":"
                                        + p.size()
                                        + ",\"platform\":{\"architecture\":\""
                                        + arch
                                        + "\",\"os\":\"linux\"}}"));
        String index =
                "{\"schemaVersion\":2,\"mediaType\":\"application/vnd.oci.image.index.v1+json\",\"manifests\":["
                        + String.join(",", entries)
                        + "]}";
        return manifest(
                repository,
                tag,
                "application/vnd.oci.image.index.v1+json",
                index.getBytes(StandardCharsets.UTF_8));
    }

    public void blob(String repository, byte[] content) throws IOException, InterruptedException {
        HttpResponse<String> start =
                send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://"
                                                        + host
                                                        + "/v2/"
                                                        + repository
                                                        + "/blobs/uploads/"))
                                .POST(HttpRequest.BodyPublishers.noBody()));
        if (start.statusCode() != 202)
            throw new IOException("upload start: HTTP " + start.statusCode() + " " + start.body());
        String location = start.headers().firstValue("Location").orElseThrow();
        URI put =
                URI.create("http://" + host)
                        .resolve(
                                location
                                        + (location.contains("?") ? "&" : "?")
                                        + "digest="
                                        + sha256(content));
        HttpResponse<String> done =
                send(
                        HttpRequest.newBuilder(put)
                                .header("Content-Type", "application/octet-stream")
                                .PUT(HttpRequest.BodyPublishers.ofByteArray(content)));
        if (done.statusCode() != 201)
            throw new IOException("upload: HTTP " + done.statusCode() + " " + done.body());
    }

    private Pushed manifest(String repository, String tag, String type, byte[] body)
            throws IOException, InterruptedException {
        HttpResponse<String> r =
                send(
                        HttpRequest.newBuilder(
                                        URI.create(
                                                "http://"
                                                        + host
                                                        + "/v2/"
                                                        + repository
                                                        + "/manifests/"
                                                        + tag))
                                .header("Content-Type", type)
                                .PUT(HttpRequest.BodyPublishers.ofByteArray(body)));
        if (r.statusCode() != 201)
            throw new IOException("manifest: HTTP " + r.statusCode() + " " + r.body());
        return new Pushed(sha256(body), body.length, type);
    }

    private HttpResponse<String> send(HttpRequest.Builder b)
            throws IOException, InterruptedException {
        if (authorization != null) b.header("Authorization", authorization);
        return http.send(b.build(), HttpResponse.BodyHandlers.ofString());
    }

    public static String sha256(byte[] b) {
        try {
            return "sha256:"
                    + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
