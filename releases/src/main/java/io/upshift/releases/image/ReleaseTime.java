package io.upshift.releases.image;

import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.PayloadLoader;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.stream.Stream;

/**
 * When a release was made, as its image says it (the config's {@code created} and history, the
 * ImageStream's {@code creationTimestamp}, the payload layer's file times), chosen from the payload
 * alone so that the same payload makes the same image: the time its {@code image-references}
 * ImageStream records (an OpenShift payload's, or a release rebuilt from its own payload, as {@code
 * oc adm release new} rebuilds a release unchanged at its recorded time), else the newest
 * modification time of its files (what {@code oc adm release new} gives its payload's entries),
 * else the epoch. Whole seconds, as oc truncates them. {@code upshift release new --created} and
 * {@code SOURCE_DATE_EPOCH} choose it instead.
 */
public final class ReleaseTime {

    private ReleaseTime() {}

    /** The release time of payload directory {@code payload}. */
    public static Instant of(Path payload) throws ReleaseException {
        Path refs = payload.resolve(PayloadLoader.RELEASE_DIR).resolve(ImageReferences.FILE);
        if (Files.isRegularFile(refs)) {
            try {
                Instant recorded =
                        ImageReferences.parse(Files.readAllBytes(refs), refs.toString()).created();
                if (recorded != null && !recorded.isBefore(Instant.EPOCH))
                    return recorded.truncatedTo(ChronoUnit.SECONDS);
            } catch (IOException | ReleaseException unreadable) {
                // the build reads the file again and refuses it with the reason
            }
        }
        Instant newest = Instant.EPOCH;
        for (String top : List.of(PayloadLoader.OPERATOR_DIR, PayloadLoader.RELEASE_DIR)) {
            Path dir = payload.resolve(top);
            if (!Files.isDirectory(dir)) continue;
            try (Stream<Path> walk = Files.walk(dir)) {
                newest =
                        walk.filter(p -> Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS))
                                .map(ReleaseTime::modified)
                                .reduce(newest, (a, b) -> a.isAfter(b) ? a : b);
            } catch (IOException | UncheckedIOException e) {
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND, "cannot read " + dir + ": " + e.getMessage(), e);
            }
        }
        return newest.truncatedTo(ChronoUnit.SECONDS);
    }

    /**
     * Whole seconds, as oc truncates a release's time; a time before 1970 cannot be a layer's entry
     * time.
     */
    public static Instant checked(Instant time, String what) throws ReleaseException {
        if (time.isBefore(Instant.EPOCH))
            throw new ReleaseException(
                    Reason.RELEASE_METADATA_INVALID,
                    what + " " + time + " is before 1970-01-01T00:00:00Z");
        return time.truncatedTo(ChronoUnit.SECONDS);
    }

    private static Instant modified(Path p) {
        try {
            return Files.getLastModifiedTime(p, LinkOption.NOFOLLOW_LINKS).toInstant();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
