package io.upshift.releases.verify;

import io.upshift.api.files.DiskErrors;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * A signature store on disk: {@code <dir>/sha256=<hex>/signature-<N>}; also where {@code release
 * sign} writes.
 */
public record DirectoryStore(Path dir) implements SignatureStore {

    @Override
    public String name() {
        return dir.toUri().toString();
    }

    @Override
    public List<byte[]> signatures(String digest) throws IOException {
        Path base = dir.resolve(SignatureStore.directoryName(digest));
        List<byte[]> out = new ArrayList<>();
        for (int n = 1; n <= MAX_SIGNATURES; n++) {
            Path file = base.resolve("signature-" + n);
            if (!Files.isRegularFile(file)) break;
            if (Files.size(file) > MAX_SIGNATURE_BYTES)
                throw new IOException(
                        file
                                + " is "
                                + Files.size(file)
                                + " bytes, larger than a signature may be ("
                                + MAX_SIGNATURE_BYTES
                                + ")");
            out.add(Files.readAllBytes(file));
        }
        return out;
    }

    /**
     * Writes {@code signature} as the next free signature-N of {@code digest} (atomically); returns
     * its path.
     */
    public Path add(String digest, byte[] signature) throws IOException {
        Path base = dir.resolve(SignatureStore.directoryName(digest));
        Path made = null; // the outermost directory this call creates, removed if it fails
        for (Path p = base; p != null && !Files.exists(p); p = p.getParent()) made = p;
        Path tmp = null;
        try {
            Files.createDirectories(base);
            int n = 1;
            while (Files.exists(base.resolve("signature-" + n))) n++;
            tmp = Files.createTempFile(base, ".signature-", ".tmp");
            Files.write(tmp, signature);
            return Files.move(tmp, base.resolve("signature-" + n), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            if (made != null) deleteTree(made);
            throw DiskErrors.naming(tmp != null ? tmp : base, e);
        } finally {
            if (tmp != null) Files.deleteIfExists(tmp);
        }
    }

    private static void deleteTree(Path root) {
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException ignored) {
            // best effort: the failure being reported is the caller's
        }
    }
}
