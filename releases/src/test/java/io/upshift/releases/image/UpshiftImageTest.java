package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.zip.GZIPInputStream;
import javax.tools.ToolProvider;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upshift's image, made the way {@code upshift image} makes it, for a small application laid out as
 * Upshift is (a jar whose manifest names its libraries in {@code lib/}): reproducible, its config
 * and layers as documented, and, where this test may chroot (as root), runnable as the non-root
 * user from its own files alone.
 */
@Tag("e2e")
class UpshiftImageTest {

    @TempDir static Path dir;
    static Path jar;
    static Path lib;

    /**
     * A main class printing the user it runs as and a line from a library jar, the way Upshift's
     * jar finds its libraries.
     */
    @BeforeAll
    static void application() throws Exception {
        Path src = Files.createDirectories(dir.resolve("src/hello"));
        Files.writeString(
                src.resolve("Main.java"),
                "package hello;\n"
                    + "public class Main { public static void main(String[] a) throws Exception {\n"
                    + "  try (var in = Main.class.getResourceAsStream(\"/greeting.txt\")) {\n"
                    + "    System.out.println(new String(in.readAllBytes()).strip() + \" \" +"
                    + " System.getProperty(\"user.name\")); } } }\n");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        assertThat(
                        ToolProvider.getSystemJavaCompiler()
                                .run(
                                        null,
                                        null,
                                        null,
                                        "-d",
                                        classes.toString(),
                                        src.resolve("Main.java").toString()))
                .isZero();
        lib = Files.createDirectories(dir.resolve("app/lib"));
        writeJar(
                lib.resolve("greeting.jar"),
                null,
                "greeting.txt",
                "hello".getBytes(StandardCharsets.UTF_8));
        Manifest m = new Manifest();
        m.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        m.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "hello.Main");
        m.getMainAttributes().put(Attributes.Name.CLASS_PATH, "lib/greeting.jar");
        jar = dir.resolve("app/app.jar");
        writeJar(
                jar,
                m,
                "hello/Main.class",
                Files.readAllBytes(classes.resolve("hello/Main.class")));
    }

    private static void writeJar(Path file, Manifest manifest, String name, byte[] content)
            throws IOException {
        try (JarOutputStream out =
                manifest == null
                        ? new JarOutputStream(Files.newOutputStream(file))
                        : new JarOutputStream(Files.newOutputStream(file), manifest)) {
            JarEntry e = new JarEntry(name);
            e.setTime(0);
            out.putNextEntry(e);
            out.write(content);
            out.closeEntry();
        }
    }

    private static BuiltImage build(String name) throws Exception {
        return UpshiftImage.build(
                new UpshiftImage.Inputs(jar, lib, ImageJdk.forImage().home(), "1.2.3"),
                Files.createDirectories(dir.resolve(name)),
                step -> {});
    }

    /**
     * The paths a layer holds, directories with a trailing slash, links as {@code path -> target}.
     */
    private static List<String> entries(Path layer) throws IOException {
        List<String> out = new ArrayList<>();
        try (TarArchiveInputStream tar =
                new TarArchiveInputStream(new GZIPInputStream(Files.newInputStream(layer)))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                out.add(e.isSymbolicLink() ? e.getName() + " -> " + e.getLinkName() : e.getName());
            }
        }
        return out;
    }

    @Test
    void theSameInputsMakeTheSameImageWithItsEntryPointUserAndLayers() throws Exception {
        BuiltImage a = build("a"), b = build("b");
        assertThat(a.digest()).isEqualTo(b.digest());
        assertThat(a.layers()).hasSize(4);

        JsonNode config = Mappers.JSON.readTree(a.config());
        assertThat(config.at("/config/User").asText()).isEqualTo("1001:1001");
        // a class-data archive where the JDK that linked the runtime makes the same one twice
        boolean archive = ImageJdk.forImage().makesReproducibleArchive();
        assertThat(config.at("/config/Entrypoint").toString())
                .isEqualTo(
                        "[\"/opt/upshift/jre/bin/java\",\"-XX:+UseSerialGC\",\"-XX:MaxRAMPercentage=50\","
                            + "\"-XX:MinHeapFreeRatio=5\",\"-XX:MaxHeapFreeRatio=10\","
                            + "\"-XX:-ShrinkHeapInSteps\",\"-XX:NewRatio=5\","
                            + "\"-XX:TieredStopAtLevel=1\",\"-XX:+ExitOnOutOfMemoryError\","
                                + (archive
                                        ? "\"-XX:+UseCompactObjectHeaders\","
                                                + "\"-XX:TrimNativeHeapInterval=30000\","
                                                + "\"-XX:SharedArchiveFile=upshift.jsa\","
                                                + "\"-XX:+UnlockDiagnosticVMOptions\","
                                                + "\"-XX:ArchiveRelocationMode=0\","
                                                + "\"--sun-misc-unsafe-memory-access=allow\","
                                        : "")
                                + "\"-jar\",\"upshift.jar\"]");
        assertThat(config.at("/config/WorkingDir").asText()).isEqualTo("/opt/upshift");
        assertThat(config.at("/config/Labels/org.opencontainers.image.version").asText())
                .isEqualTo("1.2.3");
        assertThat(config.at("/rootfs/diff_ids")).hasSize(4);

        List<String> system = entries(a.layers().get(0).file());
        assertThat(system)
                .contains("etc/passwd", "tmp/", "proc/")
                .anyMatch(e -> e.matches(".*/libc\\.so\\.6"))
                .noneMatch(e -> e.contains("libX11"))
                .noneMatch(e -> e.startsWith("opt/"));
        // the payload-retrieval Job's tools, at /bin as on the build machine (through its links)
        for (String tool : UpshiftImage.TOOLS) {
            assertThat(resolves(system, "bin/" + tool) || resolves(system, "usr/sbin/" + tool))
                    .as(tool)
                    .isTrue();
        }
        assertThat(entries(a.layers().get(1).file()))
                .contains("opt/upshift/jre/bin/java", "opt/upshift/jre/lib/server/libjvm.so");
        assertThat(entries(a.layers().get(2).file()))
                .containsExactly(
                        "opt/", "opt/upshift/", "opt/upshift/lib/", "opt/upshift/lib/greeting.jar");
        assertThat(entries(a.layers().get(3).file()))
                .containsExactlyElementsOf(
                        archive
                                ? List.of(
                                        "opt/",
                                        "opt/upshift/",
                                        "opt/upshift/upshift.jar",
                                        "opt/upshift/upshift.jsa")
                                : List.of("opt/", "opt/upshift/", "opt/upshift/upshift.jar"));

        Path layout = dir.resolve("layout");
        new OciLayoutStore().push(a, ImageRef.parse("oci:" + layout), ImageStore.Progress.NONE);
        assertThat(Files.readString(layout.resolve("index.json")))
                .contains(a.digest())
                .contains("\"latest\"");
    }

    @Test
    void aReleaseLaidOnTheImageRunsItAndIsReadFromItsTopLayerAlone() throws Exception {
        BuiltImage upshift = build("base");
        Path layouts = Files.createDirectories(dir.resolve("layouts"));
        Releases releases = new Releases(DockerCredentials.none(), false, w -> {});
        ResolvedImage base =
                releases.publish(
                        upshift,
                        ImageRef.parse("oci:" + layouts.resolve("upshift")),
                        ImageStore.Progress.NONE);
        Path payload = Files.createDirectories(dir.resolve("payload/release-manifests"));
        Files.createDirectories(dir.resolve("payload/manifests"));
        Files.writeString(
                payload.resolve("0000_10_a_config.yaml"),
                "apiVersion: v1\n"
                        + "kind: ConfigMap\n"
                        + "metadata:\n"
                        + "  name: a\n"
                        + "  namespace: ns\n"
                        + "  annotations:\n"
                        + "    include.release.openshift.io/self-managed-high-availability:"
                        + " \"true\"\n");
        ResolvedImage release =
                releases.publish(
                        dir.resolve("payload"),
                        "2.0.0",
                        List.of(),
                        ImageRef.parse("oci:" + layouts.resolve("upshift") + ":latest"),
                        ImageRef.parse("oci:" + layouts.resolve("release") + ":2.0.0"),
                        ImageStore.Progress.NONE);

        assertThat(release.layers())
                .hasSize(5)
                .startsWith(base.layers().toArray(ImageDescriptor[]::new));
        Path blobs = layouts.resolve("release/blobs/sha256");
        JsonNode config =
                Mappers.JSON.readTree(
                        Files.readAllBytes(blobs.resolve(release.config().digest().substring(7))));
        JsonNode entrypoint = config.at("/config/Entrypoint");
        assertThat(entrypoint.get(entrypoint.size() - 1).asText()).isEqualTo("upshift.jar");
        assertThat(config.at("/config/User").asText()).isEqualTo(UpshiftImage.USER);
        assertThat(config.at("/config/Labels/io.openshift.release").asText()).isEqualTo("2.0.0");
        assertThat(config.at("/rootfs/diff_ids")).hasSize(5);

        Path top = blobs.resolve(release.layers().get(4).digest().substring(7));
        assertThat(entries(top))
                .contains(
                        "release-manifests/0000_10_a_config.yaml",
                        "release-manifests/release-metadata",
                        "manifests/")
                .noneMatch(e -> e.startsWith("opt/"));
        Releases.Pulled pulled =
                releases.pull(
                        ImageRef.parse("oci:" + layouts.resolve("release") + ":2.0.0"),
                        dir.resolve("pulled"),
                        ImageStore.Progress.NONE);
        assertThat(pulled.layersRead()).isEqualTo(1);
        assertThat(
                        releases.info(
                                        ImageRef.parse(
                                                "oci:" + layouts.resolve("release") + ":2.0.0"))
                                .render())
                .contains("\nBase Image:   " + base.pullspec() + "\nImage Layers: ");
    }

    /**
     * Whether {@code path} names a file among a layer's entries, following the links the layer
     * holds.
     */
    private static boolean resolves(List<String> entries, String path) {
        for (int hops = 0; hops < 10; hops++) {
            if (entries.contains(path)) return true;
            String current = path;
            String link =
                    entries.stream()
                            .filter(
                                    e ->
                                            e.contains(" -> ")
                                                    && (current + "/")
                                                            .startsWith(
                                                                    e.substring(
                                                                                    0,
                                                                                    e.indexOf(
                                                                                            " -> "))
                                                                            + "/"))
                            .findFirst()
                            .orElse(null);
            if (link == null) return false;
            String from = link.substring(0, link.indexOf(" -> ")),
                    to = link.substring(link.indexOf(" -> ") + 4);
            Path base = Path.of("/" + from).getParent();
            String target =
                    (to.startsWith("/") ? Path.of(to) : base.resolve(to))
                            .normalize()
                            .toString()
                            .substring(1);
            path = target + path.substring(from.length());
        }
        return false;
    }

    @Test
    void aPayloadRetrievalJobsStepsRunWithTheImagesOwnTools() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "chroot needs root");
        BuiltImage image = build("tools");
        Path root = Files.createDirectories(dir.resolve("tools-rootfs"));
        try {
            for (BuiltImage.LayerFile l : image.layers())
                run(List.of("tar", "xzf", l.file().toString(), "-C", root.toString()));
            // a release's payload at the image's root, the node's directory where the Job mounts it
            Files.createDirectories(root.resolve("manifests"));
            Files.writeString(
                    Files.createDirectories(root.resolve("release-manifests"))
                            .resolve("release-metadata"),
                    "{}");
            Files.createDirectories(root.resolve("payloads/0123456789.partial-abcde/manifests"));
            String tmp = "/payloads/0123456789.partial-abcde";
            for (List<String> step :
                    List.of(
                            List.of("rm", "-fR", tmp),
                            List.of("mkdir", tmp),
                            List.of("cp", "-r", "/manifests", tmp + "/manifests"),
                            List.of("cp", "-r", "/release-manifests", tmp + "/release-manifests"),
                            List.of("mv", tmp, "/payloads/0123456789"))) {
                List<String> command = new ArrayList<>(List.of("chroot", root.toString()));
                command.addAll(step);
                run(command);
            }
            assertThat(
                            run(
                                    List.of(
                                            "chroot",
                                            root.toString(),
                                            "sh",
                                            "-c",
                                            "ls /payloads; cat"
                                                + " /payloads/0123456789/release-manifests/release-metadata")))
                    .isEqualTo("0123456789\n{}");
        } finally {
            exec(
                    List.of(
                            "rm",
                            "-rf",
                            root.toString())); // its links point outside the test's directory
        }
    }

    @Test
    void theImageRunsItsApplicationAsTheNonRootUserFromItsOwnFiles() throws Exception {
        Assumptions.assumeTrue("root".equals(System.getProperty("user.name")), "chroot needs root");
        BuiltImage image = build("run");
        Path root = Files.createDirectories(dir.resolve("rootfs"));
        for (BuiltImage.LayerFile l : image.layers())
            run(List.of("tar", "xzf", l.file().toString(), "-C", root.toString()));
        // a container runtime mounts /proc; the dynamic loader finds the runtime's own libraries
        // through it
        Assumptions.assumeTrue(
                exec(List.of("mount", "-t", "proc", "proc", root.resolve("proc").toString())) == 0,
                "cannot mount /proc here");
        try {
            // its entry point, in its working directory
            List<String> entrypoint = new ArrayList<>();
            Mappers.JSON
                    .readTree(image.config())
                    .at("/config/Entrypoint")
                    .forEach(a -> entrypoint.add(a.asText()));
            String out =
                    run(
                            List.of(
                                    "chroot",
                                    "--userspec=1001:1001",
                                    root.toString(),
                                    "sh",
                                    "-c",
                                    "cd "
                                            + UpshiftImage.WORKING_DIR
                                            + " && exec "
                                            + String.join(" ", entrypoint)));
            assertThat(out.strip()).isEqualTo("hello upshift");
        } finally {
            exec(List.of("umount", root.resolve("proc").toString()));
            exec(
                    List.of(
                            "rm",
                            "-rf",
                            root.toString())); // its links point outside the test's directory
        }
    }

    private static String run(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (InputStream in = p.getInputStream()) {
            in.transferTo(out);
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(String.join(" ", command) + ": " + out).isZero();
        return out.toString(StandardCharsets.UTF_8);
    }

    private static int exec(List<String> command) throws Exception {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().transferTo(OutputStream.nullOutputStream());
        return p.waitFor(120, TimeUnit.SECONDS) ? p.exitValue() : -1;
    }
}
