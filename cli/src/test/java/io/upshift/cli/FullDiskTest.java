package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code release new}, {@code sign} and {@code extract} onto a disk that fills up: a small tmpfs,
 * mounted in a mount namespace of the command's own ({@code unshare -rm}), so no privilege is
 * needed. Each fails naming the path it could not write, and leaves nothing of itself behind.
 */
@Tag("e2e")
class FullDiskTest {

    @TempDir Path dir;

    @BeforeEach
    void namespaces() throws Exception {
        Assumptions.assumeTrue(
                new ProcessBuilder("unshare", "-rm", "true").start().waitFor() == 0,
                "unshare -rm (user and mount namespaces) is not available here");
    }

    /** What {@code upshift ARGS} printed and left in {@code disk} (a tmpfs of {@code size}). */
    private record Outcome(int code, String err, List<String> left) {}

    private Outcome onFullDisk(String size, String fill, String... args) throws Exception {
        Path disk = Files.createDirectories(dir.resolve("disk"));
        StringBuilder script =
                new StringBuilder(
                        "cp=\"$1\"; shift; mount -t tmpfs -o size="
                                + size
                                + " tmpfs \"$0\" || exit 90; ");
        if (fill != null)
            script.append("dd if=/dev/zero of=\"$0\"/").append(fill).append(" bs=4k 2>/dev/null; ");
        script.append(
                        "java -cp \"$cp\" io.upshift.cli.Upshift \"$@\" 2>\"$0.err\"; echo"
                                + " \"exit=$?\"; ")
                .append("cd \"$0\" && find . | sort");
        List<String> command =
                new ArrayList<>(
                        List.of(
                                "unshare",
                                "-rm",
                                "sh",
                                "-c",
                                script.toString(),
                                disk.toString(),
                                System.getProperty("java.class.path")));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isNotEqualTo(90);
        int code =
                Integer.parseInt(
                        out.lines()
                                .filter(l -> l.startsWith("exit="))
                                .findFirst()
                                .orElseThrow()
                                .substring(5));
        List<String> left = out.lines().dropWhile(l -> !l.startsWith("exit=")).skip(1).toList();
        return new Outcome(code, Files.readString(dir.resolve("disk.err")), left);
    }

    private Path payload() throws IOException {
        Path p = dir.resolve("payload");
        Files.createDirectories(p.resolve("manifests"));
        Files.createDirectories(p.resolve("release-manifests"));
        byte[] noise = new byte[300_000];
        new Random(1).nextBytes(noise);
        Files.writeString(
                p.resolve("release-manifests/0000_10_a_config.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  namespace: ns\n"
                        + "  annotations:\n"
                        + "    include.release.openshift.io/self-managed-high-availability:"
                        + " \"true\"\n"
                        + "binaryData:\n  noise: "
                        + Base64.getEncoder().encodeToString(noise)
                        + "\n");
        return p;
    }

    @Test
    void releaseNewNamesTheBlobAndLeavesNoPartialLayout() throws Exception {
        Outcome o =
                onFullDisk(
                        "64k",
                        null,
                        "release",
                        "new",
                        "--from",
                        payload().toString(),
                        "--version",
                        "1.0.0",
                        "--to",
                        "oci:" + dir.resolve("disk/layout") + ":1.0.0");

        assertThat(o.code()).as(o.err()).isEqualTo(2);
        assertThat(o.err())
                .startsWith(
                        "upshift: WriteFailed: cannot write the OCI layout "
                                + dir.resolve("disk/layout")
                                + ": "
                                + dir.resolve("disk/layout/blobs/sha256/"))
                .endsWith(": No space left on device\n");
        assertThat(o.left()).as("nothing of the layout").containsExactly(".");
    }

    @Test
    void signNamesTheFileAndLeavesNoEmptyDirectory() throws Exception {
        assertThat(run("release", "keygen", "--out", dir.resolve("k").toString()).code()).isZero();
        Outcome o =
                onFullDisk(
                        "64k",
                        "fill",
                        "release",
                        "sign",
                        "quay.example/r@sha256:" + "a".repeat(64),
                        "--key",
                        dir.resolve("k.key").toString(),
                        "--store",
                        dir.resolve("disk/signatures").toString());

        assertThat(o.code()).as(o.err()).isEqualTo(2);
        assertThat(o.err())
                .startsWith("upshift: " + dir.resolve("disk/signatures/sha256=" + "a".repeat(64)))
                .endsWith(": No space left on device\n");
        assertThat(o.left()).as("no signature directory").containsExactly(".", "./fill");
    }

    @Test
    void extractNamesTheFileAndLeavesNothing() throws Exception {
        CliRun.Result published =
                run(
                        "release",
                        "new",
                        "--from",
                        payload().toString(),
                        "--version",
                        "1.0.0",
                        "--to",
                        "oci:" + dir.resolve("layout") + ":1.0.0");
        assertThat(published.code()).as(published.err()).isZero();

        Outcome o =
                onFullDisk(
                        "64k",
                        null,
                        "release",
                        "extract",
                        "oci:" + dir.resolve("layout") + ":1.0.0",
                        "--to",
                        dir.resolve("disk/out/payload").toString());

        assertThat(o.code()).as(o.err()).isEqualTo(2);
        assertThat(o.err())
                .startsWith(
                        "upshift: WriteFailed: cannot unpack the image into "
                                + dir.resolve("disk/out/payload")
                                + ": "
                                + dir.resolve("disk/out"))
                .endsWith(": No space left on device\n");
        assertThat(o.left())
                .as("no target, no staging, no parent made for it")
                .containsExactly(".");
    }
}
