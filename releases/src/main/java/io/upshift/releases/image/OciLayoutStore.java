package io.upshift.releases.image;

import static java.nio.charset.StandardCharsets.UTF_8;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.files.DiskErrors;
import io.upshift.api.json.Mappers;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;

/**
 * An OCI image layout directory (image-spec "image-layout"): {@code oci-layout}, {@code index.json}
 * naming manifests by tag ({@code org.opencontainers.image.ref.name}) and {@code
 * blobs/sha256/<hex>}.
 */
public final class OciLayoutStore implements ImageStore {

    public static final String MANIFEST_MEDIA_TYPE = "application/vnd.oci.image.manifest.v1+json";
    static final String REF_NAME = "org.opencontainers.image.ref.name";

    private static final ObjectMapper JSON = Mappers.JSON;

    /**
     * Writes the image's blobs, then {@code oci-layout}, then the index that names it: all of it or
     * nothing (on a failure, the blobs and directories this push made are removed, and the index is
     * as it was).
     */
    @Override
    public String push(BuiltImage image, ImageRef ref, Progress progress) throws ReleaseException {
        Path root = ref.path();
        Path made = null; // the outermost directory this push creates
        for (Path p = root.resolve("blobs/sha256").toAbsolutePath();
                p != null && !Files.exists(p);
                p = p.getParent()) made = p;
        List<Path> written = new ArrayList<>();
        try {
            Files.createDirectories(root.resolve("blobs/sha256"));
            writeBlob(
                    root,
                    image.configDescriptor().digest(),
                    out -> out.write(image.config()),
                    written);
            long bytes = 0;
            for (BuiltImage.LayerFile layer : image.layers()) {
                writeBlob(
                        root,
                        layer.descriptor().digest(),
                        out -> Files.copy(layer.file(), out),
                        written);
                bytes += layer.descriptor().size();
                progress.bytes(bytes, image.size());
            }
            writeBlob(root, image.digest(), out -> out.write(image.manifest()), written);
            Path layout = root.resolve("oci-layout");
            if (!Files.exists(layout)) {
                writeAtomically(layout, "{\"imageLayoutVersion\":\"1.0.0\"}".getBytes(UTF_8));
                written.add(layout);
            }
            ObjectNode index = readIndex(root);
            ArrayNode manifests = (ArrayNode) index.withArray("manifests");
            String tag = ref.tag() != null ? ref.tag() : image.defaultTag();
            for (int i = manifests.size() - 1; i >= 0; i--) {
                if (tag.equals(manifests.get(i).path("annotations").path(REF_NAME).asText()))
                    manifests.remove(i);
            }
            ObjectNode entry = manifests.addObject();
            entry.put("mediaType", MANIFEST_MEDIA_TYPE)
                    .put("digest", image.digest())
                    .put("size", image.manifest().length);
            entry.putObject("annotations").put(REF_NAME, tag);
            writeAtomically(
                    root.resolve("index.json"),
                    JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(index));
            return image.digest();
        } catch (IOException e) {
            for (Path p : written) FileTrees.deleteQuietly(p);
            if (made != null) FileTrees.deleteQuietly(made);
            throw new ReleaseException(
                    Reason.WRITE_FAILED,
                    "cannot write the OCI layout " + root + ": " + DiskErrors.describe(e),
                    e);
        }
    }

    @Override
    public ResolvedImage resolve(ImageRef ref) throws ReleaseException {
        Path root = ref.path();
        if (!Files.isRegularFile(root.resolve("index.json"))) {
            throw new ReleaseException(
                    Reason.IMAGE_NOT_FOUND,
                    ref + ": " + root + " is not an OCI image layout (no index.json)");
        }
        try {
            List<JsonNode> candidates = new ArrayList<>();
            for (JsonNode m : readIndex(root).path("manifests")) {
                boolean byDigest =
                        ref.digest() != null && ref.digest().equals(m.path("digest").asText());
                boolean byTag =
                        ref.tag() != null
                                && ref.tag().equals(m.path("annotations").path(REF_NAME).asText());
                if (byDigest || byTag || (ref.digest() == null && ref.tag() == null))
                    candidates.add(m);
            }
            if (candidates.isEmpty())
                throw new ReleaseException(
                        Reason.IMAGE_NOT_FOUND, ref + ": no such image in the layout");
            if (candidates.size() > 1) {
                throw new ReleaseException(
                        Reason.IMAGE_NOT_FOUND,
                        ref
                                + ": the layout holds "
                                + candidates.size()
                                + " images; name one by tag or digest");
            }
            String digest = candidates.get(0).path("digest").asText();
            byte[] manifest =
                    readBlob(
                            root,
                            new ImageDescriptor(
                                    MANIFEST_MEDIA_TYPE,
                                    digest,
                                    candidates.get(0).path("size").asLong(-1)));
            return ManifestJson.parse(ref, digest, manifest);
        } catch (IOException e) {
            throw new ReleaseException(
                    Reason.IMAGE_INVALID, ref + ": unreadable OCI layout: " + e.getMessage(), e);
        }
    }

    @Override
    public void fetch(ResolvedImage image, ImageDescriptor blob, Path target, Progress progress)
            throws ReleaseException {
        try (InputStream in = Files.newInputStream(blobPath(image.ref().path(), blob.digest()));
                OutputStream out = Files.newOutputStream(target)) {
            Digests.Counting counted = new Digests.Counting(out);
            in.transferTo(counted);
            BlobCheck.verify(image.ref(), blob, counted.count, Digests.of(counted.digest));
            progress.bytes(counted.count, blob.size());
        } catch (IOException e) {
            FileTrees.deleteQuietly(target);
            throw new ReleaseException(
                    Reason.IMAGE_NOT_FOUND,
                    image.ref()
                            + ": blob "
                            + blob.digest()
                            + " cannot be read from the layout: "
                            + e.getMessage(),
                    e);
        } catch (ReleaseException e) {
            FileTrees.deleteQuietly(target);
            throw e;
        }
    }

    private byte[] readBlob(Path root, ImageDescriptor d) throws IOException, ReleaseException {
        byte[] content = Files.readAllBytes(blobPath(root, d.digest()));
        BlobCheck.verify(
                null,
                d.size() < 0 ? new ImageDescriptor(d.mediaType(), d.digest(), content.length) : d,
                content.length,
                Digests.of(content));
        return content;
    }

    private static Path blobPath(Path root, String digest) throws IOException {
        if (!digest.matches("sha256:[0-9a-f]{64}"))
            throw new IOException("invalid digest " + digest);
        return root.resolve("blobs/sha256").resolve(digest.substring("sha256:".length()));
    }

    private interface Writer {
        void write(OutputStream out) throws IOException;
    }

    /** Writes a blob the layout lacks, adding it to {@code written}. */
    private static void writeBlob(Path root, String digest, Writer writer, List<Path> written)
            throws IOException {
        Path target = blobPath(root, digest);
        if (Files.exists(target)) return;
        Path tmp = Files.createTempFile(target.getParent(), ".blob-", ".tmp");
        try {
            try (OutputStream out = Files.newOutputStream(tmp)) {
                writer.write(out);
            }
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
            written.add(target);
        } catch (IOException e) {
            throw DiskErrors.naming(target, e);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static void writeAtomically(Path file, byte[] content) throws IOException {
        Path tmp = Files.createTempFile(file.getParent(), ".tmp-", "");
        try {
            Files.write(tmp, content);
            Files.move(
                    tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw DiskErrors.naming(file, e);
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    private static ObjectNode readIndex(Path root) throws IOException {
        Path index = root.resolve("index.json");
        if (!Files.exists(index)) {
            ObjectNode fresh = JSON.createObjectNode().put("schemaVersion", 2);
            fresh.putArray("manifests");
            return fresh;
        }
        JsonNode node = JSON.readTree(index.toFile());
        if (!(node instanceof ObjectNode o)) throw new IOException("index.json is not an object");
        return o;
    }
}
