package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.rehearsal.synthetic.LevelCluster;
import io.upshift.rehearsal.synthetic.LevelReleases;
import io.upshift.status.snapshot.SnapshotDump;
import io.upshift.testkit.HostileImages;
import io.upshift.testkit.HostileImages.Attack;
import io.upshift.testkit.RawImages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The crafted release images of {@link HostileImages} given to every command that reads a release
 * image: each refuses it naming the layer entry, and nothing outside the target changes.
 */
class HostileImageTest {

    @TempDir Path dir;

    static Stream<Attack> attacks() throws Exception {
        return HostileImages.attacks("4.18.3").stream();
    }

    /** The image in an OCI layout of its own, by digest, with what it aims at planted beside. */
    private String layout(Attack attack) throws Exception {
        Files.createDirectories(dir.resolve(HostileImages.OUTSIDE));
        Files.writeString(
                dir.resolve(HostileImages.OUTSIDE).resolve(HostileImages.DELETED), "keep\n");
        Files.writeString(
                dir.resolve(HostileImages.LEAKED),
                "apiVersion: v1\nkind: Secret\nmetadata:\n  name: leaked\n  namespace: x\n");
        RawImages.Pushed image =
                RawImages.layout(dir.resolve("image"), "hostile", "amd64", attack.layers());
        return "oci:" + dir.resolve("image") + "@" + image.digest();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attacks")
    void extractRefusesItAndChangesNothingOutside(Attack attack) throws Exception {
        String image = layout(attack);
        Map<String, String> before = files(dir);
        Path target = dir.resolve("out/target");

        CliRun.Result r = run("release", "extract", image, "--to", target.toString());

        assertThat(r.code()).as(r.out() + r.err()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("upshift: UnsafeLayerEntry: layer entry \"" + attack.entry() + "\" ")
                .endsWith("; nothing was extracted\n")
                .hasLineCount(1);
        assertThat(files(dir)).as("nothing outside the target changed").isEqualTo(before);
        assertThat(target).doesNotExist();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attacks")
    void infoAndGraphRefuseIt(Attack attack) throws Exception {
        String image = layout(attack);
        for (String command : List.of("info", "graph")) {
            CliRun.Result r = run("release", command, image);
            assertThat(r.code()).as(command + ": " + r.out() + r.err()).isEqualTo(2);
            assertThat(r.err())
                    .as(command)
                    .startsWith(
                            "upshift: UnsafeLayerEntry: layer entry \"" + attack.entry() + "\" ");
            assertThat(r.out()).as(command).doesNotContain("leaked");
        }
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("attacks")
    void aRehearsalReadsNothingOfIt(Attack attack) throws Exception {
        String image = layout(attack);
        LevelReleases releases = new LevelReleases(dir.resolve("releases"));
        String from = releases.publish(LevelCluster.FROM, true);
        String to = releases.publish(LevelCluster.TO, true);
        Path snapshot = dir.resolve("snapshot");
        SnapshotDump.write(
                snapshot,
                new LevelCluster(3, from, to, Instant.parse("2026-11-20T10:00:00Z")).objects());

        CliRun.Result r =
                run(
                        "rehearse",
                        "--snapshot",
                        snapshot.toString(),
                        "--to-image",
                        image,
                        "--plan-only");

        assertThat(r.out() + r.err())
                .contains("layer entry \"" + attack.entry() + "\"")
                .doesNotContain("leaked");
    }

    /** Every file and directory under {@code root} but the image's layout, with its content. */
    private static Map<String, String> files(Path root) throws Exception {
        Map<String, String> out = new TreeMap<>();
        try (Stream<Path> walk = Files.walk(root)) {
            for (Path p : walk.filter(p -> !p.startsWith(root.resolve("image"))).toList()) {
                out.put(
                        root.relativize(p).toString(),
                        Files.isSymbolicLink(p)
                                ? "-> " + Files.readSymbolicLink(p)
                                : Files.isDirectory(p) ? "dir" : Files.readString(p));
            }
        }
        return out;
    }
}
