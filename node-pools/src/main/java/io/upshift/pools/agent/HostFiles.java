package io.upshift.pools.agent;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URLDecoder;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.Base64;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;

/**
 * Writes a rendered config's files, systemd units and SSH keys under the host root. Each file is
 * written whole to a temporary file beside it, synced, then renamed over the old one: a reader or a
 * crash sees the old file or the new one, never half of either. Paths are checked again here:
 * nothing lands outside the root.
 */
public final class HostFiles {
    private final Path root;

    public HostFiles(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** Where the core user's SSH keys go, as on RHCOS 9 (upstream's {@code RHCOS9SSHKeyPath}). */
    static final String SSH_KEYS = "/home/core/.ssh/authorized_keys.d/ignition";

    /**
     * Brings the host from one Ignition config to another: files the new config no longer has are
     * deleted, its files written; its systemd units written, masked, enabled or disabled ({@link
     * SystemdUnits}); the core user's SSH keys written (or deleted when it has none). {@code from}
     * is empty for a node's first config. Stops at the first failure; what was written before it is
     * complete, and applying the same change again finishes it.
     */
    public void apply(JsonNode from, JsonNode to) {
        Map<String, JsonNode> before = byKey(from.path("storage").path("files"), "path"),
                after = byKey(to.path("storage").path("files"), "path");
        for (String path : before.keySet()) {
            if (!after.containsKey(path)) delete(path);
        }
        for (JsonNode f : after.values()) {
            String path = f.path("path").asText();
            write(
                    path,
                    decode(
                            path,
                            f.path("contents").path("source").asText(""),
                            f.path("contents").path("compression").asText("")),
                    f.path("mode").asInt(0644));
        }
        new SystemdUnits(this)
                .apply(
                        byKey(from.path("systemd").path("units"), "name"),
                        byKey(to.path("systemd").path("units"), "name"));
        writeSshKeys(to);
    }

    static Map<String, JsonNode> byKey(JsonNode list, String key) {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        for (JsonNode item : list) out.put(item.path(key).asText(), item);
        return out;
    }

    /** The core user's keys, one a line, readable by core alone; none means no file. */
    private void writeSshKeys(JsonNode ignition) {
        StringBuilder keys = new StringBuilder();
        for (JsonNode user : ignition.path("passwd").path("users")) {
            if (!"core".equals(user.path("name").asText())) continue;
            for (JsonNode key : user.path("sshAuthorizedKeys"))
                keys.append(key.asText()).append('\n');
        }
        if (keys.isEmpty()) {
            delete(SSH_KEYS);
            return;
        }
        for (String dir : List.of("/home/core/.ssh", "/home/core/.ssh/authorized_keys.d")) {
            try {
                Files.createDirectories(resolve(dir));
                Files.setPosixFilePermissions(resolve(dir), permissions(0700));
            } catch (IOException e) {
                throw new UncheckedIOException("cannot create " + dir + ": " + e.getMessage(), e);
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system
            }
            own(dir, "core");
        }
        write(SSH_KEYS, keys.toString().getBytes(StandardCharsets.UTF_8), 0600);
        own(SSH_KEYS, "core");
    }

    /**
     * Gives a file to a user of the host (its /etc/passwd names them); nothing when the host has no
     * such user.
     */
    void own(String hostPath, String user) {
        byte[] passwd = read("/etc/passwd");
        if (passwd == null) return;
        for (String line : new String(passwd, StandardCharsets.UTF_8).split("\n")) {
            String[] f = line.split(":");
            if (f.length < 4 || !f[0].equals(user)) continue;
            try {
                Files.setAttribute(
                        resolve(hostPath),
                        "unix:uid",
                        Integer.parseInt(f[2]),
                        LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(
                        resolve(hostPath),
                        "unix:gid",
                        Integer.parseInt(f[3]),
                        LinkOption.NOFOLLOW_LINKS);
            } catch (IOException e) {
                throw new UncheckedIOException(
                        "cannot give " + hostPath + " to " + user + ": " + e.getMessage(), e);
            }
            return;
        }
    }

    /**
     * A symbolic link at {@code hostPath} to {@code target} (a path as the host sees it), put in
     * place by a rename.
     */
    public void symlink(String hostPath, String target) {
        Path link = resolve(hostPath);
        Path temp = link.resolveSibling("." + link.getFileName() + ".upshift-new");
        try {
            Files.createDirectories(link.getParent());
            Files.deleteIfExists(temp);
            Files.createSymbolicLink(temp, Path.of(target));
            Files.move(
                    temp,
                    link,
                    StandardCopyOption.ATOMIC_MOVE,
                    StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot link " + hostPath + " to " + target + ": " + e.getMessage(), e);
        }
    }

    /** Where a symbolic link points, or null when {@code hostPath} is none. */
    public String linkTarget(String hostPath) {
        Path p = resolve(hostPath);
        try {
            return Files.isSymbolicLink(p) ? Files.readSymbolicLink(p).toString() : null;
        } catch (IOException e) {
            throw new UncheckedIOException(
                    "cannot read the link " + hostPath + ": " + e.getMessage(), e);
        }
    }

    /**
     * True when something (a file, a directory, a link even if dangling) is at {@code hostPath}.
     */
    public boolean exists(String hostPath) {
        return Files.exists(resolve(hostPath), LinkOption.NOFOLLOW_LINKS);
    }

    /** The names in a directory of the host, in name order; none when it does not exist. */
    public List<String> list(String hostDir) {
        Path dir = resolve(hostDir);
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> entries = Files.list(dir)) {
            return entries.map(p -> p.getFileName().toString()).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + hostDir + ": " + e.getMessage(), e);
        }
    }

    public void write(String hostPath, byte[] content, int mode) {
        Path target = resolve(hostPath);
        Path temp = target.resolveSibling("." + target.getFileName() + ".upshift-new");
        try {
            Files.createDirectories(target.getParent());
            try (FileChannel out =
                    FileChannel.open(
                            temp,
                            StandardOpenOption.CREATE,
                            StandardOpenOption.TRUNCATE_EXISTING,
                            StandardOpenOption.WRITE)) {
                out.write(ByteBuffer.wrap(content));
                out.force(true);
            }
            try {
                Files.setPosixFilePermissions(temp, permissions(mode));
            } catch (UnsupportedOperationException e) {
                // not a POSIX file system: keep the default permissions
            }
            try {
                Files.move(
                        temp,
                        target,
                        StandardCopyOption.ATOMIC_MOVE,
                        StandardCopyOption.REPLACE_EXISTING);
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
        if (!hostPath.startsWith("/"))
            throw new IllegalArgumentException("file path \"" + hostPath + "\" is not absolute");
        Path p = root.resolve(hostPath.substring(1)).normalize();
        if (!p.startsWith(root) || p.equals(root))
            throw new IllegalArgumentException(
                    "file path \"" + hostPath + "\" leaves the host root");
        return p;
    }

    /**
     * Ignition file contents are data URLs: {@code data:,<percent-encoded>} or {@code
     * data:;base64,<base64>}, gzip-compressed when {@code compression} says so.
     */
    static byte[] decode(String path, String source, String compression) {
        byte[] data = decode(path, source);
        if (compression.isEmpty()) return data;
        if (!compression.equals("gzip"))
            throw new IllegalArgumentException(
                    "file " + path + ": unsupported compression type \"" + compression + "\"");
        try (GZIPInputStream in = new GZIPInputStream(new ByteArrayInputStream(data))) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new IllegalArgumentException("file " + path + ": not gzip: " + e.getMessage(), e);
        }
    }

    static byte[] decode(String path, String source) {
        if (source.isEmpty()) return new byte[0];
        if (!source.startsWith("data:"))
            throw new IllegalArgumentException(
                    "file " + path + ": only data: URLs are supported, not " + source);
        int comma = source.indexOf(',');
        if (comma < 0) throw new IllegalArgumentException("file " + path + ": malformed data URL");
        String meta = source.substring(5, comma), data = source.substring(comma + 1);
        if (meta.endsWith(";base64")) return Base64.getDecoder().decode(data);
        return URLDecoder.decode(data.replace("+", "%2B"), StandardCharsets.UTF_8)
                .getBytes(StandardCharsets.UTF_8);
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> set = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE,
            PosixFilePermission.OTHERS_WRITE,
            PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE,
            PosixFilePermission.GROUP_WRITE,
            PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE,
            PosixFilePermission.OWNER_WRITE,
            PosixFilePermission.OWNER_READ
        };
        for (int i = 0; i < order.length; i++) {
            if ((mode & (1 << i)) != 0) set.add(order[i]);
        }
        return set;
    }
}
