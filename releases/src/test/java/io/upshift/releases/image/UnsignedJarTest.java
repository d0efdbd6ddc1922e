package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import org.bouncycastle.bcpg.BCPGInputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The image's signed libraries lose their signature and nothing else: Bouncy Castle's real signed
 * jar from the build, and a manifest's sections taken apart line by line.
 */
class UnsignedJarTest {

    @Test
    void aSignedJarLosesItsSignatureAndKeepsEveryClassByteForByte(@TempDir Path dir)
            throws Exception {
        Path signed = jarOf(BCPGInputStream.class);
        assertThat(UnsignedJar.isSigned(signed)).as(signed + " is signed").isTrue();
        Path copy = dir.resolve("copy.jar");

        UnsignedJar.copy(signed, copy);

        assertThat(UnsignedJar.isSigned(copy)).isFalse();
        try (JarFile before = new JarFile(signed.toFile(), true);
                JarFile after = new JarFile(copy.toFile(), true)) {
            assertThat(after.getManifest().getMainAttributes())
                    .isEqualTo(before.getManifest().getMainAttributes());
            assertThat(after.getManifest().getEntries()).isEmpty();
            int classes = 0;
            for (JarEntry e : Collections.list(after.entries())) {
                if (e.isDirectory() || e.getName().startsWith("META-INF/")) continue;
                JarEntry original = before.getJarEntry(e.getName());
                byte[] bytes = read(after, e);
                assertThat(bytes).as(e.getName()).isEqualTo(read(before, original));
                assertThat(original.getCodeSigners()).as(e.getName()).isNotNull();
                assertThat(e.getCodeSigners()).as(e.getName()).isNull();
                classes++;
            }
            assertThat(classes)
                    .isEqualTo(
                            (int)
                                    Collections.list(before.entries()).stream()
                                            .filter(
                                                    e ->
                                                            !e.isDirectory()
                                                                    && !e.getName()
                                                                            .startsWith(
                                                                                    "META-INF/"))
                                            .count());
        }
        Path again = dir.resolve("again.jar");
        UnsignedJar.copy(signed, again);
        assertThat(Files.readAllBytes(again)).isEqualTo(Files.readAllBytes(copy));
    }

    @Test
    void anUnsignedJarIsCopiedAsItIs(@TempDir Path dir) throws Exception {
        Path jar = dir.resolve("plain.jar");
        Manifest m = new Manifest();
        m.getMainAttributes().putValue("Manifest-Version", "1.0");
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar), m)) {
            out.putNextEntry(new JarEntry("a/B.class"));
            out.write(new byte[] {1, 2, 3});
        }
        Path copy = dir.resolve("copy.jar");

        UnsignedJar.copy(jar, copy);

        assertThat(Files.readAllBytes(copy)).isEqualTo(Files.readAllBytes(jar));
    }

    @Test
    void aSectionKeepsWhatIsNotADigestAndGoesWhenOnlyItsNameIsLeft() {
        String manifest =
                String.join(
                        "\r\n",
                        "Manifest-Version: 1.0",
                        "Created-By: hand",
                        "",
                        "Name: a/B.class",
                        "SHA-256-Digest: abc=",
                        "",
                        "Name: a/very/long/name/that/goes/on/and/on/and/on/to/the/next/line/C.cla",
                        " ss",
                        "SHA-256-Digest: def",
                        " ghi=",
                        "Sealed: true",
                        "",
                        "");

        assertThat(UnsignedJar.withoutDigests(manifest))
                .isEqualTo(
                        String.join(
                                "\r\n",
                                "Manifest-Version: 1.0",
                                "Created-By: hand",
                                "",
                                "Name:"
                                    + " a/very/long/name/that/goes/on/and/on/and/on/to/the/next/line/C.cla",
                                " ss",
                                "Sealed: true",
                                "",
                                ""));
    }

    private static Path jarOf(Class<?> c) throws URISyntaxException {
        return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    }

    /** Reading an entry to its end is what checks it against a signed jar's digests. */
    private static byte[] read(JarFile jar, JarEntry e) throws Exception {
        try (InputStream in = jar.getInputStream(e)) {
            return in.readAllBytes();
        }
    }
}
