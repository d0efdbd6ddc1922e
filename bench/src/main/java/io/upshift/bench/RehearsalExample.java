package io.upshift.bench;

import io.upshift.rehearsal.synthetic.LevelCluster;
import io.upshift.rehearsal.synthetic.LevelReleases;
import io.upshift.status.snapshot.SnapshotDump;
import java.nio.file.Path;
import java.time.Instant;

/**
 * Writes the cluster the rehearsal's docs rehearse: a {@link LevelCluster} of {@code WORKERS}
 * workers as a snapshot in {@code DIR/snapshot}, and its releases 4.18.1 and 4.18.2, signed, in the
 * OCI layout {@code DIR/releases} (the snapshot names them by that path, as given).
 *
 * <p>Usage: {@code RehearsalExample DIR WORKERS}
 */
public final class RehearsalExample {
    private RehearsalExample() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 2) {
            System.err.println("usage: RehearsalExample DIR WORKERS");
            System.exit(2);
        }
        Path dir = Path.of(args[0]);
        LevelReleases releases = new LevelReleases(dir);
        String from = releases.publish(LevelCluster.FROM, true);
        String to = releases.publish(LevelCluster.TO, true);
        SnapshotDump.write(
                dir.resolve("snapshot"),
                new LevelCluster(
                                Integer.parseInt(args[1]),
                                from,
                                to,
                                Instant.parse("2026-11-20T10:00:00Z"))
                        .objects());
        System.out.println(
                "snapshot in " + dir.resolve("snapshot") + "; releases " + from + ", " + to);
    }
}
