package io.upshift.bench;

import io.upshift.releases.image.BuiltImage;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageBuilder;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.RegistryAccess;
import io.upshift.releases.image.Releases;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.testkit.LocalRegistry;
import io.upshift.testkit.RawImages;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;

/**
 * What pulling a release costs when the payload is small and the image is not: a base layer of
 * {@code baseMB} MB of incompressible data with a RHEL-like base's absolute links, under a payload
 * layer built by {@code upshift release new} (from {@code payloadDir}, or a synthetic payload of
 * about 5 MB), pushed to Debian's docker-registry on loopback and pulled as the controller pulls.
 * Prints the bytes fetched against the image's size.
 *
 * <p>{@code bench/run PayloadPull [baseMB] [payloadDir]}
 */
public final class PayloadPull {

    public static void main(String[] args) throws Exception {
        int baseMB = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        Path work = Files.createTempDirectory("bench-pull-");
        try (LocalRegistry registry =
                LocalRegistry.start(
                        Files.createDirectories(work.resolve("registry")), null, null)) {
            Path payload =
                    args.length > 1
                            ? Path.of(args[1])
                            : PayloadWriter.write(work.resolve("payload"), "1.0.0", 2500, 2000);
            Path metadata = payload.resolve("release-manifests/release-metadata");
            String version =
                    ReleaseMetadata.parse(Files.readAllBytes(metadata), metadata.toString())
                            .version();
            BuiltImage built =
                    ImageBuilder.build(
                            payload,
                            version,
                            null,
                            Files.createDirectories(work.resolve("build")),
                            w -> {});
            byte[] noise = new byte[baseMB << 20];
            new SplittableRandom(7).nextBytes(noise);
            byte[] base =
                    RawImages.layer(
                            List.of(
                                    RawImages.Entry.symlink(
                                            "etc/alternatives/java",
                                            "/usr/lib/jvm/java-17/bin/java"),
                                    RawImages.Entry.file("usr/lib/base.bin", noise)));
            byte[] top = Files.readAllBytes(built.layer());
            RawImages.Pushed image =
                    new RawImages(registry.host(), null, null)
                            .image("bench/release", "big", "amd64", List.of(base, top));
            Releases releases =
                    new Releases(
                            RegistryAccess.of(DockerCredentials.none(), false)
                                    .withArchitecture("amd64"),
                            w -> {});
            long start = System.nanoTime();
            Releases.Pulled pulled =
                    releases.pull(
                            ImageRef.parse(registry.host() + "/bench/release@" + image.digest()),
                            work.resolve("out"),
                            ImageStore.Progress.NONE);
            long ms = (System.nanoTime() - start) / 1_000_000;
            System.out.printf(
                    "base layer %d bytes, payload layer %d bytes (payload %d bytes unpacked): %s in"
                            + " %d ms%n",
                    base.length, top.length, size(work.resolve("out")), pulled.summary(), ms);
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    private static long size(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
    }
}
