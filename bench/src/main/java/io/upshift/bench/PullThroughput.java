package io.upshift.bench;

import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.Releases;
import io.upshift.releases.image.ResolvedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Random;

/**
 * Pull-and-extract throughput from a registry: publishes a payload of about {@code MB} megabytes of
 * manifests (random-looking, so gzip cannot shrink it much) to {@code HOST}, then extracts it
 * {@code RUNS} times and prints MB/s for each. Usage: {@code PullThroughput HOST:PORT [MB] [RUNS]}.
 */
public final class PullThroughput {

    public static void main(String[] args) throws Exception {
        String host = args[0];
        int mb = args.length > 1 ? Integer.parseInt(args[1]) : 20,
                runs = args.length > 2 ? Integer.parseInt(args[2]) : 5;
        Path work = Files.createTempDirectory("upshift-pull-bench-");
        Path payload = Files.createDirectories(work.resolve("payload"));
        PayloadWriter.write(payload, "1.0.0", 0);
        Random random = new Random(1);
        for (int i = 0; i < mb; i++) {
            StringBuilder s =
                    new StringBuilder(
                            "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: blob-"
                                    + i
                                    + "\n"
                                    + "  annotations:\n"
                                    + "    include.release.openshift.io/self-managed-high-availability:"
                                    + " \"true\"\n"
                                    + "binaryData:\n"
                                    + "  data: ");
            byte[] bytes = new byte[750_000];
            random.nextBytes(bytes);
            s.append(Base64.getEncoder().encodeToString(bytes)).append('\n');
            Files.writeString(
                    payload.resolve(String.format("release-manifests/0000_50_blob_%03d.yaml", i)),
                    s);
        }
        Releases releases = new Releases(DockerCredentials.none(), false, w -> {});
        ResolvedImage image =
                releases.publish(
                        payload,
                        "1.0.0",
                        null,
                        ImageRef.parse("docker://" + host + "/bench/release:1.0.0"),
                        ImageStore.Progress.NONE);
        System.out.printf(
                "published %s: %.1f MB compressed%n", image.pullspec(), image.size() / 1e6);
        for (int r = 0; r < runs; r++) {
            Path target = work.resolve("extract-" + r);
            long start = System.nanoTime();
            releases.extract(ImageRef.parse(image.pullspec()), target, ImageStore.Progress.NONE);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf(
                    "run %d: %.3f s, %.0f MB/s%n", r + 1, seconds, image.size() / 1e6 / seconds);
        }
        FileTrees.deleteQuietly(work);
    }
}
