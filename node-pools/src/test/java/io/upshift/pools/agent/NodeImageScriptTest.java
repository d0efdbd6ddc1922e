package io.upshift.pools.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The host script deploy/host/node-image/upshift-node-image on a folder standing for the host's
 * root: containerd's ctr and systemctl are played by small scripts (an image is a folder; the
 * kubelet's state a file), everything else is the script as a host runs it.
 */
class NodeImageScriptTest {
    static final Path SCRIPT = Path.of("../deploy/host/node-image/upshift-node-image");

    @TempDir Path dir;
    Path root;
    Path fakes;
    Path images;

    record Run(int code, String output) {}

    @BeforeEach
    void host() throws IOException {
        root = Files.createDirectories(dir.resolve("root"));
        fakes = Files.createDirectories(dir.resolve("fakes"));
        images = Files.createDirectories(dir.resolve("images"));
        write(root.resolve("usr/local/bin/kubelet"), "kubelet as installed\n");
        write(
                root.resolve("etc/default/upshift-node-image"),
                "STEADY=0\nCHECK_TIMEOUT=2\nHEALTHZ_PORT=0\n");
        // ctr: an image is the folder images/<digest>; mount copies it, unmount empties the mount
        write(
                fakes.resolve("ctr"),
                """
                #!/bin/bash
                shift 2  # -n upshift
                case "$1 $2" in
                  "images pull") ref=${@: -1}; [ -d "$IMAGES/${ref#*@sha256:}" ] || { echo "not found: $ref"; exit 1; } ;;
                  "images mount") ref=$3; mkdir -p "$4"; cp -a "$IMAGES/${ref#*@sha256:}/." "$4/" ;;
                  "images unmount") rm -rf "${@: -1}"; mkdir -p "${@: -1}" ;;
                esac
                """);
        // systemctl: the kubelet's state from files; the calls that change something, recorded
        write(
                fakes.resolve("systemctl"),
                """
                #!/bin/bash
                case "$1" in
                  show) [ "$3" = ActiveState ] && cat "$FAKES/state" || cat "$FAKES/restarts" ;;
                  *) echo "$*" >> "$FAKES/calls" ;;
                esac
                """);
        fakes.resolve("ctr").toFile().setExecutable(true);
        fakes.resolve("systemctl").toFile().setExecutable(true);
        kubelet("active", 0);
    }

    @Test
    void anImageIsStagedBesideTheFilesInUseActivatedAtBootKeptWhenHealthyAndThePreviousKept()
            throws Exception {
        String ref = image("v1.31.14", Map.of("usr/local/bin/kubelet", "kubelet v1.31.14\n"));
        request(ref);
        assertThat(run("stage").code()).isZero();
        assertThat(read("usr/local/bin/kubelet")).isEqualTo("kubelet as installed\n");
        assertThat(read("var/lib/upshift/node-image/staged/ref")).isEqualTo(ref + "\n");
        assertThat(run("stage").output()).contains("is staged already");

        assertThat(run("activate").code()).isZero();
        assertThat(read("usr/local/bin/kubelet")).isEqualTo("kubelet v1.31.14\n");
        assertThat(Files.exists(root.resolve("var/lib/upshift/node-image/trial"))).isTrue();
        assertThat(read("var/lib/upshift/node-image/previous/root/usr/local/bin/kubelet"))
                .isEqualTo("kubelet as installed\n");
        assertThat(run("activate").code()).isZero(); // nothing staged: nothing changes
        assertThat(read("usr/local/bin/kubelet")).isEqualTo("kubelet v1.31.14\n");

        Run check = run("check");
        assertThat(check.code()).isZero();
        assertThat(check.output()).contains(ref + " kept");
        assertThat(Files.exists(root.resolve("var/lib/upshift/node-image/trial"))).isFalse();
        assertThat(calls()).doesNotContain("reboot");
        assertThat(run("stage").output()).contains("is in use already");
    }

    @Test
    void anImageWhoseKubeletDoesNotStayUpFallsBackToThePreviousNamesItAndIsNotStagedAgain()
            throws Exception {
        String good = image("good", Map.of("usr/local/bin/kubelet", "kubelet good\n"));
        request(good);
        run("stage");
        run("activate");
        run("check");
        String bad =
                image(
                        "bad",
                        Map.of(
                                "usr/local/bin/kubelet",
                                "kubelet that exits\n",
                                "opt/extra/tool",
                                "new tool\n"));
        request(bad);
        assertThat(run("stage").code()).isZero();
        assertThat(run("activate").code()).isZero();
        assertThat(read("opt/extra/tool")).isEqualTo("new tool\n");
        kubelet("activating", 7);

        Run check = run("check");
        assertThat(read("usr/local/bin/kubelet")).isEqualTo("kubelet good\n");
        assertThat(Files.exists(root.resolve("opt/extra/tool"))).isFalse(); // absent before
        String failed = read("var/lib/upshift/node-image/failed");
        assertThat(failed)
                .isEqualTo(
                        "node image "
                                + bad
                                + " failed: the kubelet was not healthy for 0 s in a row within 2"
                                + " s (now activating, restarted 7 times); back on "
                                + good
                                + "\n");
        assertThat(check.output()).contains("rebooting");
        assertThat(calls()).contains("reboot");
        assertThat(read("var/lib/upshift/node-image/active/ref")).isEqualTo(good + "\n");

        // The agent stages the same image again (a retry): refused with the same words.
        Run again = run("stage");
        assertThat(again.code()).isNotZero();
        assertThat(again.output()).contains(failed.strip());
        assertThat(Files.exists(root.resolve("var/lib/upshift/node-image/staged"))).isFalse();
    }

    @Test
    void theFirstImageFallsBackToTheHostsOwnFiles() throws Exception {
        String bad = image("bad", Map.of("usr/local/bin/kubelet", "kubelet that exits\n"));
        request(bad);
        run("stage");
        run("activate");
        kubelet("failed", 3);
        run("check");
        assertThat(read("usr/local/bin/kubelet")).isEqualTo("kubelet as installed\n");
        assertThat(read("var/lib/upshift/node-image/failed"))
                .endsWith("back on the host's own files\n");
    }

    @Test
    void anActivationCutShortIsUndoneThenDoneAgainAtTheNextBoot() throws Exception {
        String ref = image("v2", Map.of("usr/local/bin/kubelet", "kubelet v2\n"));
        request(ref);
        run("stage");
        run("activate");
        // as if the host went down after the previous slot was made and one file was half put:
        // the activation marker is there and the staged slot is back
        Path d = root.resolve("var/lib/upshift/node-image");
        Files.writeString(d.resolve("activating"), "");
        write(root.resolve("usr/local/bin/kubelet"), "half written");
        run("stage"); // no-op: in use
        Files.createDirectories(d.resolve("staged/root/usr/local/bin"));
        Files.writeString(d.resolve("staged/root/usr/local/bin/kubelet"), "kubelet v2\n");
        Files.writeString(d.resolve("staged/ref"), ref + "\n");
        Files.copy(d.resolve("active/manifest"), d.resolve("staged/manifest"));
        Files.writeString(d.resolve("staged/ready"), "");

        Run boot = run("activate");
        assertThat(boot.code()).isZero();
        assertThat(boot.output()).contains("cut short");
        assertThat(read("usr/local/bin/kubelet")).isEqualTo("kubelet v2\n");
        // the previous slot is still the host's own kubelet, not the half-written one
        assertThat(read("var/lib/upshift/node-image/previous/root/usr/local/bin/kubelet"))
                .isEqualTo("kubelet as installed\n");
        assertThat(Files.exists(d.resolve("activating"))).isFalse();
    }

    @Test
    void badImagesAreRefusedAndLeaveTheHostAsItWas() throws Exception {
        request("registry.example/node:1");
        assertThat(run("stage").output()).contains("is not named by digest");

        String mismatch = image("mismatch", Map.of("usr/local/bin/kubelet", "kubelet\n"));
        Files.writeString(
                images.resolve(hex("mismatch")).resolve("usr/local/bin/kubelet"), "tampered\n");
        request(mismatch);
        Run r = run("stage");
        assertThat(r.code()).isNotZero();
        assertThat(r.output()).contains("files do not match its manifest");

        String outside = image("outside", Map.of("etc/passwd", "root::0:0::/:/bin/sh\n"));
        request(outside);
        assertThat(run("stage").output())
                .contains("the path etc/passwd is outside usr/, opt/ and etc/systemd/system/");

        String escape = image("escape", Map.of("usr/../etc/shadow", "x\n"));
        request(escape);
        assertThat(run("stage").output()).contains("is not plain");

        // a link, as a file or as a folder on the way, would point into the host's own files
        String linked = image("linked", Map.of("usr/local/bin/kubelet", "x\n"));
        Path kubelet = images.resolve(hex("linked")).resolve("usr/local/bin/kubelet");
        Files.delete(kubelet);
        Files.createSymbolicLink(kubelet, Path.of("/bin/sh"));
        request(linked);
        assertThat(run("stage").output())
                .contains(
                        "usr/local/bin/kubelet is a symbolic link; a node image holds plain files"
                                + " and folders only");
        String viaFolder = image("via-folder", Map.of("usr/local/bin/kubelet", "y\n"));
        Path local = images.resolve(hex("via-folder")).resolve("usr/local");
        Path moved = images.resolve(hex("via-folder")).resolve("elsewhere");
        Files.move(local, moved);
        Files.createSymbolicLink(local, moved);
        request(viaFolder);
        assertThat(run("stage").output()).contains("usr/local is a symbolic link");

        request(image("ok", Map.of("usr/local/bin/kubelet", "ok\n")));
        Files.writeString(root.resolve("etc/upshift/kernel-arguments"), "nosmt\n");
        assertThat(run("stage").output()).contains("need an image-based OS (rpm-ostree)");

        assertThat(Files.exists(root.resolve("var/lib/upshift/node-image/staged"))).isFalse();
        assertThat(read("usr/local/bin/kubelet")).isEqualTo("kubelet as installed\n");
        assertThat(Files.exists(root.resolve("etc/passwd"))).isFalse();
    }

    /** A node image: its files and their manifest; returns its reference by digest. */
    String image(String name, Map<String, String> files) throws IOException {
        Path img = Files.createDirectories(images.resolve(hex(name)));
        StringBuilder manifest = new StringBuilder();
        for (Map.Entry<String, String> f : new LinkedHashMap<>(files).entrySet()) {
            Path p = img.resolve(f.getKey()).normalize();
            if (p.startsWith(img)) write(p, f.getValue());
            manifest.append(sha256(f.getValue())).append("  ").append(f.getKey()).append('\n');
        }
        write(img.resolve("upshift/node-image.manifest"), manifest.toString());
        return "registry.example/node@sha256:" + hex(name);
    }

    void request(String ref) throws IOException {
        write(root.resolve("etc/upshift/os-image"), ref + "\n");
    }

    void kubelet(String state, int restarts) throws IOException {
        Files.writeString(fakes.resolve("state"), state + "\n");
        Files.writeString(fakes.resolve("restarts"), restarts + "\n");
    }

    Run run(String step) throws Exception {
        ProcessBuilder pb = new ProcessBuilder("bash", SCRIPT.toString(), step);
        pb.environment()
                .putAll(
                        Map.of(
                                "UPSHIFT_HOST_ROOT", root.toString(),
                                "UPSHIFT_CTR", fakes.resolve("ctr").toString(),
                                "UPSHIFT_SYSTEMCTL", fakes.resolve("systemctl").toString(),
                                "IMAGES", images.toString(),
                                "FAKES", fakes.toString()));
        pb.redirectErrorStream(true);
        Process p = pb.start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        return new Run(p.waitFor(), out);
    }

    String read(String path) throws IOException {
        return Files.readString(root.resolve(path));
    }

    List<String> calls() throws IOException {
        Path c = fakes.resolve("calls");
        return Files.exists(c) ? Files.readAllLines(c) : List.of();
    }

    static void write(Path p, String text) throws IOException {
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
    }

    static String hex(String name) {
        return sha256(name);
    }

    static String sha256(String text) {
        try {
            return HexFormat.of()
                    .formatHex(
                            MessageDigest.getInstance("SHA-256")
                                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
