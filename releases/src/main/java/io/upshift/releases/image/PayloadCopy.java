package io.upshift.releases.image;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.PayloadLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.List;
import java.util.stream.Stream;

/**
 * {@code upshift release copy-payload}, inside a release image: copies the image's own payload
 * ({@code /manifests}, {@code /release-manifests}) into a directory, all or nothing (a staging
 * directory beside the target, renamed into place), regular files and directories only. The
 * controller's payload-retrieval Job does the same with the image's own {@code cp} and {@code mv},
 * so that it works on any release image.
 */
public final class PayloadCopy {

    private PayloadCopy() {}

    /** Copies the payload under {@code root} to {@code target}, which must not exist yet. */
    public static void copy(Path root, Path target) throws ReleaseException {
        for (String dir : List.of(PayloadLoader.OPERATOR_DIR, PayloadLoader.RELEASE_DIR)) {
            if (!Files.isDirectory(root.resolve(dir), LinkOption.NOFOLLOW_LINKS)) {
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND,
                        root.resolve(dir) + " is missing: this image holds no release payload");
            }
        }
        if (Files.exists(target, LinkOption.NOFOLLOW_LINKS))
            throw new ReleaseException(Reason.TARGET_NOT_EMPTY, target + " already exists");
        Path staging =
                target.resolveSibling(
                        target.getFileName() + ".partial-" + ProcessHandle.current().pid());
        try {
            Files.createDirectories(staging);
            for (String dir : List.of(PayloadLoader.OPERATOR_DIR, PayloadLoader.RELEASE_DIR)) {
                List<Path> paths;
                try (Stream<Path> walk = Files.walk(root.resolve(dir))) {
                    paths = walk.sorted().toList();
                }
                for (Path p : paths) {
                    Path to = staging.resolve(root.relativize(p).toString());
                    if (Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS))
                        Files.createDirectories(to);
                    else if (Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS)) Files.copy(p, to);
                }
            }
            Files.move(staging, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            FileTrees.deleteQuietly(staging);
            throw new ReleaseException(
                    Reason.TARGET_NOT_EMPTY,
                    "cannot copy the payload to " + target + ": " + e.getMessage(),
                    e);
        }
    }
}
