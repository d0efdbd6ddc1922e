package io.upshift.releases.image;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A JDK that can link the image's Java runtime: its home and the version its {@code release} file
 * names.
 *
 * <p>The runtime's class-data archive is made only by a JDK whose dumps are the same from one run
 * to the next ({@link #makesReproducibleArchive()}): the JDK 17's differ when the machine is busy,
 * even with the address space not randomized, and an image must be the same twice. The JDK 25's
 * were the same in every dump we made, busy or quiet.
 */
public record ImageJdk(Path home, Runtime.Version version) {

    /** The first feature release whose class-data dumps were seen to be reproducible. */
    static final int REPRODUCIBLE_ARCHIVE = 25;

    /**
     * The first feature release whose jlink links from the JDK's own run-time image when it has no
     * {@code jmods/} (JEP 493; Temurin's JDK 25 ships that way).
     */
    static final int LINKS_WITHOUT_JMODS = 24;

    private static final Pattern JAVA_VERSION = Pattern.compile("(?m)^JAVA_VERSION=\"([^\"]+)\"");

    /** The JDK at {@code home}, as its {@code release} file describes it. */
    public static ImageJdk of(Path home) throws IOException {
        Path release = home.resolve("release");
        if (!Files.isRegularFile(release))
            throw new IOException(home + " is not a JDK: it has no release file");
        Matcher m = JAVA_VERSION.matcher(Files.readString(release, StandardCharsets.UTF_8));
        if (!m.find()) throw new IOException(release + " names no JAVA_VERSION");
        try {
            return new ImageJdk(home, Runtime.Version.parse(m.group(1)));
        } catch (IllegalArgumentException e) {
            throw new IOException(release + ": JAVA_VERSION " + m.group(1) + " does not parse", e);
        }
    }

    /**
     * The JDK to link the image's runtime from when none is named: {@code running} (the one this
     * JVM runs on) if it makes a reproducible class-data archive, else the newest JDK installed
     * beside it (a sibling folder, as {@code /usr/lib/jvm} holds them) that does and can link, else
     * {@code running}, whose image then has no archive.
     */
    public static ImageJdk forImage(Path running) throws IOException {
        ImageJdk own = of(running);
        if (own.makesReproducibleArchive() || running.getParent() == null) return own;
        Optional<ImageJdk> newer;
        try (Stream<Path> siblings = Files.list(running.getParent())) {
            newer =
                    siblings.filter(p -> !Files.isSymbolicLink(p))
                            .map(ImageJdk::ofQuietly)
                            .flatMap(Optional::stream)
                            .filter(j -> j.makesReproducibleArchive() && j.canLink())
                            .max(Comparator.comparing(ImageJdk::version));
        }
        return newer.orElse(own);
    }

    /** The JDK this JVM runs on, or the one {@link #forImage} prefers to it. */
    public static ImageJdk forImage() throws IOException {
        return forImage(Path.of(System.getProperty("java.home")));
    }

    private static Optional<ImageJdk> ofQuietly(Path home) {
        try {
            return Optional.of(of(home));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    public boolean makesReproducibleArchive() {
        return version.feature() >= REPRODUCIBLE_ARCHIVE;
    }

    /**
     * Whether its jlink can link a runtime: it has one, and its {@code jmods/} or (from JDK 24) its
     * own run-time image to link from.
     */
    public boolean canLink() {
        return Files.isExecutable(home.resolve("bin/jlink"))
                && (Files.isDirectory(home.resolve("jmods"))
                        || (version.feature() >= LINKS_WITHOUT_JMODS
                                && Files.isRegularFile(home.resolve("lib/modules"))));
    }

    @Override
    public String toString() {
        return "JDK " + version + " (" + home + ")";
    }
}
