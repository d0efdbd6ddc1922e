package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.image.BuiltImage;
import io.upshift.releases.image.ImageJdk;
import io.upshift.releases.image.UpshiftImage;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Upshift's image holds production code only (DESIGN.md): built as {@code upshift image} builds it,
 * from the libraries the build puts in {@code lib/} (the runtime class path, which the build lists
 * in {@code target/runtime-classpath.txt} before the tests), its layers hold no jar of the demo,
 * the testkit, the mock API server, JUnit or Awaitility. Those are in {@code demo-lib/}, which
 * {@code upshift demo} loads.
 */
class ImageLibrariesTest {

    /** Jars of test code, by name. */
    private static final Pattern TEST_CODE =
            Pattern.compile(
                    ".*(demo|testkit|kubernetes-server-mock|mockwebserver|junit|opentest4j|awaitility|hamcrest|assertj).*\\.jar");

    @TempDir Path dir;

    @Test
    void theImagesLayersHoldNoJarOfTestCode() throws Exception {
        Path runtime = Path.of("target/runtime-classpath.txt");
        assertThat(runtime)
                .as(
                        "the build's runtime class path, listed by Maven before the tests (run them"
                                + " with Maven)")
                .isRegularFile();
        Path lib = Files.createDirectories(dir.resolve("lib"));
        for (Path entry : classPath(Files.readString(runtime).strip())) stage(entry, lib);
        // upshift.jar itself is made by package, after the tests: a jar of a manifest alone stands
        // in for it (the class-data archive is dumped with -jar, which reads its Main-Class)
        Path jar = dir.resolve("upshift.jar");
        Manifest manifest = new Manifest();
        manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.getMainAttributes().put(Attributes.Name.MAIN_CLASS, "io.upshift.cli.Main");
        try (OutputStream out = new JarOutputStream(Files.newOutputStream(jar), manifest)) {
            out.flush();
        }
        BuiltImage image =
                UpshiftImage.build(
                        new UpshiftImage.Inputs(jar, lib, ImageJdk.forImage().home(), "test"),
                        Files.createDirectories(dir.resolve("image")),
                        step -> {});

        List<String> jars = new ArrayList<>();
        for (BuiltImage.LayerFile layer : image.layers()) jars.addAll(jars(layer.file()));
        TreeSet<String> staged = new TreeSet<>();
        try (Stream<Path> files = Files.list(lib)) {
            files.forEach(f -> staged.add("opt/upshift/lib/" + f.getFileName()));
        }
        assertThat(jars)
                .as("the image's jars")
                .containsAll(staged)
                .contains("opt/upshift/upshift.jar")
                .anyMatch(j -> j.contains("/picocli-"))
                .anyMatch(j -> j.contains("/kubernetes-client-"))
                .anyMatch(
                        j ->
                                j.contains("/upshift-cluster-version")
                                        || j.endsWith("/cluster-version.jar"))
                .noneMatch(j -> TEST_CODE.matcher(j).matches());

        // the names this test looks for are those of the test code on the tests' own class path
        List<String> tests =
                classPath(System.getProperty("java.class.path")).stream()
                        .map(ImageLibrariesTest::name)
                        .filter(n -> TEST_CODE.matcher(n).matches())
                        .toList();
        for (String expected :
                List.of(
                        "demo",
                        "testkit",
                        "kubernetes-server-mock",
                        "mockwebserver",
                        "junit-jupiter-api",
                        "awaitility")) {
            assertThat(tests)
                    .as("test code on the tests' class path")
                    .anyMatch(n -> n.contains(expected));
        }
    }

    private static List<Path> classPath(String path) {
        return Stream.of(path.split(Pattern.quote(File.pathSeparator)))
                .filter(s -> !s.isEmpty())
                .map(Path::of)
                .toList();
    }

    /**
     * The name a class-path entry has in lib/: a jar's own; a module of this build not packaged yet
     * (its {@code target/classes}) is the module's directory name.
     */
    private static String name(Path entry) {
        return Files.isDirectory(entry)
                ? entry.toAbsolutePath().getParent().getParent().getFileName() + ".jar"
                : entry.getFileName().toString();
    }

    /**
     * Puts a class-path entry in lib/ as package would: a jar as it is, a directory of classes as a
     * jar of them.
     */
    private static void stage(Path entry, Path lib) throws IOException {
        Path target = lib.resolve(name(entry));
        if (!Files.isDirectory(entry)) {
            Files.copy(entry, target);
            return;
        }
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(target));
                Stream<Path> files = Files.walk(entry)) {
            for (Path f : files.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(
                        new JarEntry(
                                entry.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    /** The jars a layer holds, by path. */
    private static List<String> jars(Path layer) throws IOException {
        List<String> out = new ArrayList<>();
        try (TarArchiveInputStream tar =
                new TarArchiveInputStream(new GZIPInputStream(Files.newInputStream(layer)))) {
            for (TarArchiveEntry e = tar.getNextEntry(); e != null; e = tar.getNextEntry()) {
                if (e.getName().endsWith(".jar")) out.add(e.getName());
            }
        }
        return out;
    }
}
