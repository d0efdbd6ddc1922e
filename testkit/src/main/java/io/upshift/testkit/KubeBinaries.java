package io.upshift.testkit;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Where the real Kubernetes binaries are, for the tests that run on a real API server: {@code
 * KUBE_BIN} (a folder holding {@code etcd}, {@code kube-apiserver} and {@code
 * kube-controller-manager}) when it is set, otherwise the {@code ../shared/kube} folder beside the
 * repository (system property {@code upshift.kube}, set by the build), unpacked once by its own
 * {@code unpack} script into a cache folder outside the repository. Either the folder and the
 * version its kube-apiserver names, or why there is none, in words a user can act on.
 */
record KubeBinaries(Path dir, String version) {
    static final List<String> NEEDED = List.of("etcd", "kube-apiserver", "kube-controller-manager");

    Path etcd() {
        return dir.resolve("etcd");
    }

    Path apiServer() {
        return dir.resolve("kube-apiserver");
    }

    Path controllerManager() {
        return dir.resolve("kube-controller-manager");
    }

    /** The binaries, or the reason they cannot be had. */
    sealed interface Found permits Present, Absent {}

    record Present(KubeBinaries binaries) implements Found {}

    record Absent(String reason) implements Found {}

    static Found find() {
        String kubeBin = System.getenv("KUBE_BIN");
        if (kubeBin == null || kubeBin.isBlank()) kubeBin = System.getProperty("upshift.kube.bin");
        if (kubeBin != null && !kubeBin.isBlank()) {
            Path dir = Path.of(kubeBin).toAbsolutePath();
            String missing = missing(dir);
            return missing == null
                    ? present(dir)
                    : new Absent("KUBE_BIN=" + kubeBin + " holds no " + missing);
        }
        Path shared = sharedKube();
        if (shared == null)
            return new Absent(
                    "no Kubernetes binaries: set KUBE_BIN or put ../shared/kube beside the"
                            + " repository");
        try {
            Path dir = unpack(shared);
            String missing = missing(dir);
            return missing == null
                    ? present(dir)
                    : new Absent(shared + "/unpack left no " + missing + " in " + dir);
        } catch (IOException e) {
            return new Absent("cannot unpack " + shared + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Absent("interrupted while unpacking " + shared);
        }
    }

    private static Found present(Path dir) {
        try {
            return new Present(new KubeBinaries(dir, version(dir.resolve("kube-apiserver"))));
        } catch (IOException e) {
            return new Absent(dir.resolve("kube-apiserver") + " does not run: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Absent("interrupted while asking kube-apiserver its version");
        }
    }

    /** The first of the needed binaries {@code dir} lacks, or null. */
    private static String missing(Path dir) {
        for (String b : NEEDED) if (!Files.isExecutable(dir.resolve(b))) return b;
        return null;
    }

    /**
     * The shared folder with an {@code unpack} script: the build's {@code upshift.kube}, or {@code
     * ../shared/kube} beside the repository this test runs in (found from the working directory).
     */
    private static Path sharedKube() {
        String property = System.getProperty("upshift.kube");
        if (property != null && Files.isExecutable(Path.of(property, "unpack")))
            return Path.of(property).toAbsolutePath().normalize();
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            if (Files.exists(d.resolve("mvnw"))) {
                Path kube = d.resolveSibling("shared").resolve("kube");
                if (Files.isExecutable(kube.resolve("unpack"))) return kube.normalize();
            }
        }
        return null;
    }

    /**
     * Runs the shared folder's {@code unpack} (once per machine: it keeps what it unpacked and
     * checks the checksums), under a lock so that two test JVMs do not unpack the same file at
     * once.
     */
    private static Path unpack(Path shared) throws IOException, InterruptedException {
        Path lock = Path.of(System.getProperty("java.io.tmpdir"), "upshift-kube-unpack.lock");
        try (FileChannel channel = new RandomAccessFile(lock.toFile(), "rw").getChannel();
                FileLock held = channel.lock()) {
            Path log = Files.createTempFile("upshift-kube-unpack", ".log");
            try {
                Process p =
                        new ProcessBuilder(shared.resolve("unpack").toString())
                                .redirectError(log.toFile())
                                .start();
                String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                if (!p.waitFor(10, TimeUnit.MINUTES)) {
                    p.destroyForcibly();
                    throw new IOException("unpack did not finish within 10 minutes");
                }
                if (p.exitValue() != 0)
                    throw new IOException(
                            "exit " + p.exitValue() + ": " + Files.readString(log).strip());
                String[] lines = out.strip().split("\n");
                return Path.of(lines[lines.length - 1].strip());
            } finally {
                Files.deleteIfExists(log);
            }
        }
    }

    /** "v1.32.13", from {@code kube-apiserver --version} ("Kubernetes v1.32.13"). */
    private static String version(Path apiServer) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(apiServer.toString(), "--version").start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IOException("--version did not answer within 60 s");
        }
        if (p.exitValue() != 0) throw new IOException("--version exited " + p.exitValue());
        return out.startsWith("Kubernetes ") ? out.substring("Kubernetes ".length()) : out;
    }
}
