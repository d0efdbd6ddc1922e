package io.upshift.operator.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Base64;
import java.util.EnumSet;
import java.util.Set;

/**
 * Writes a rendered config's files and systemd units under the host root. Each file is written whole to a temporary
 * file beside it, synced, then renamed over the old one: a reader or a crash sees the old file or the new one, never
 * half of either. Paths are checked again here: nothing lands outside the root.
 */
public final class HostFiles {
    private final Path root;

    public HostFiles(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** Writes every file and unit of an Ignition config; stops at the first failure (files before it are complete). */
    public void apply(JsonNode ignition) {
        for (JsonNode f : ignition.path("storage").path("files")) {
            write(f.path("path").asText(), decode(f.path("path").asText(), f.path("contents").path("source").asText("")),
                    f.path("mode").asInt(0644));
        }
        for (JsonNode u : ignition.path("systemd").path("units")) {
            if (u.has("contents")) {
                write("/etc/systemd/system/" + u.path("name").asText(), u.path("contents").asText().getBytes(StandardCharsets.UTF_8), 0644);
            }
        }
    }

    public void write(String hostPath, byte[] content, int mode) {
        Path target = resolve(hostPath);
        Path temp = target.resolveSibling("." + target.getFileName() + ".upshift-new");
        try {
            Files.createDirectories(target.getParent());
            try (FileChannel out = FileChannel.open(temp, StandardOpenOption.CREATE, StandardOpenOption.TRUNCATE_EXISTING, StandardOpenOption.WRITE)) {
                out.write(java.nio.ByteBuffer.wrap(content));
                out.force(true);
            }
            try {
                Files.setPosixFilePermissions(temp, permissions(mode));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: keep the default permissions
            }
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            try {
                Files.deleteIfExists(temp);
            } catch (IOException ignored) {
                // the write failed already; that is the error to report
            }
            throw new UncheckedIOException("cannot write " + hostPath + ": " + e.getMessage(), e);
        }
    }

    public void delete(String hostPath) {
        try {
            Files.deleteIfExists(resolve(hostPath));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + hostPath + ": " + e.getMessage(), e);
        }
    }

    /** The file's current content, or null when it does not exist. */
    public byte[] read(String hostPath) {
        try {
            Path p = resolve(hostPath);
            return Files.exists(p) ? Files.readAllBytes(p) : null;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + hostPath + ": " + e.getMessage(), e);
        }
    }

    Path resolve(String hostPath) {
        if (!hostPath.startsWith("/")) throw new IllegalArgumentException("file path \"" + hostPath + "\" is not absolute");
        Path p = root.resolve(hostPath.substring(1)).normalize();
        if (!p.startsWith(root) || p.equals(root)) throw new IllegalArgumentException("file path \"" + hostPath + "\" leaves the host root");
        return p;
    }

    /** Ignition file contents are data URLs: {@code data:,<percent-encoded>} or {@code data:;base64,<base64>}. */
    static byte[] decode(String path, String source) {
        if (source.isEmpty()) return new byte[0];
        if (!source.startsWith("data:")) throw new IllegalArgumentException("file " + path + ": only data: URLs are supported, not " + source);
        int comma = source.indexOf(',');
        if (comma < 0) throw new IllegalArgumentException("file " + path + ": malformed data URL");
        String meta = source.substring(5, comma), data = source.substring(comma + 1);
        if (meta.endsWith(";base64")) return Base64.getDecoder().decode(data);
        return URLDecoder.decode(data.replace("+", "%2B"), StandardCharsets.UTF_8).getBytes(StandardCharsets.UTF_8);
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
                PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
                PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ};
        for (int i = 0; i < order.length; i++) {
            if ((mode & (1 << i)) != 0) set.add(order[i]);
        }
        return set;
    }
}
