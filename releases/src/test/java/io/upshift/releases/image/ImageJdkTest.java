package io.upshift.releases.image;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which JDK links the image's runtime when none is named, and which of them make its archive. */
class ImageJdkTest {

    @TempDir Path jvms;

    /** A JDK laid out as installed: its release file, jlink, and jmods or a linkable image. */
    private Path jdk(String name, String version, boolean jmods) throws IOException {
        Path home = Files.createDirectories(jvms.resolve(name));
        Files.writeString(
                home.resolve("release"),
                "IMPLEMENTOR=\"Someone\"\nJAVA_VERSION=\"" + version + "\"\nOS_NAME=\"Linux\"\n");
        Path jlink = Files.createDirectories(home.resolve("bin")).resolve("jlink");
        Files.createFile(
                jlink,
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwxr-xr-x")));
        Files.createDirectories(home.resolve("lib"));
        Files.writeString(home.resolve("lib/modules"), "");
        if (jmods) Files.createDirectories(home.resolve("jmods"));
        return home;
    }

    @Test
    void aJdk17LooksForTheNewestJdkBesideItThatMakesAReproducibleArchive() throws Exception {
        Path running = jdk("java-17-openjdk-amd64", "17.0.15", true);
        jdk("temurin-25-jdk-amd64", "25.0.3", false);
        jdk("temurin-26-jdk-amd64", "26", false);
        jdk("java-21-openjdk-amd64", "21.0.5", true);
        Files.createSymbolicLink(
                jvms.resolve("default-java"), jvms.resolve("temurin-26-jdk-amd64"));

        ImageJdk chosen = ImageJdk.forImage(running);
        assertThat(chosen.home()).isEqualTo(jvms.resolve("temurin-26-jdk-amd64"));
        assertThat(chosen.makesReproducibleArchive()).isTrue();
        assertThat(chosen.canLink()).isTrue(); // no jmods, but a linkable image from JDK 24 on
    }

    @Test
    void theRunningJdkIsKeptWhenItMakesTheArchiveOrNothingBesideItDoes() throws Exception {
        Path running25 = jdk("a-25", "25.0.1", false);
        jdk("b-26", "26.0.1", false);
        assertThat(ImageJdk.forImage(running25).home()).isEqualTo(running25);

        Path alone = Files.createDirectories(jvms.resolve("other"));
        Path running17 = Files.move(jdk("c-17", "17.0.2", true), alone.resolve("c-17"));
        Files.createDirectories(alone.resolve("not-a-jdk"));
        ImageJdk chosen = ImageJdk.forImage(running17);
        assertThat(chosen.home()).isEqualTo(running17);
        assertThat(chosen.makesReproducibleArchive()).isFalse();
    }

    @Test
    void aJdkThatCannotLinkIsNotChosen() throws Exception {
        Path running = jdk("java-17", "17.0.15", true);
        Path broken = jdk("jre-25", "25.0.3", false);
        Files.delete(broken.resolve("bin/jlink"));
        assertThat(ImageJdk.forImage(running).home()).isEqualTo(running);

        Path old = jdk("jdk-21-without-jmods", "21.0.5", false);
        assertThat(ImageJdk.of(old).canLink()).isFalse();
    }

    @Test
    void aFolderWithoutAReadableVersionIsNoJdk() throws Exception {
        Path empty = Files.createDirectories(jvms.resolve("empty"));
        assertThatThrownBy(() -> ImageJdk.of(empty))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("has no release file");
        Files.writeString(empty.resolve("release"), "JAVA_VERSION=\"seventeen\"\n");
        assertThatThrownBy(() -> ImageJdk.of(empty))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("JAVA_VERSION seventeen does not parse");
    }
}
