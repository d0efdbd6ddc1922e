package io.upshift.rehearsal.render;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.rehearsal.model.Blocker;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.rehearsal.model.Durations;
import io.upshift.rehearsal.model.Facts;
import io.upshift.rehearsal.model.Rehearsal;
import io.upshift.rehearsal.model.Stalls;
import io.upshift.rehearsal.model.Target;
import io.upshift.rehearsal.model.Timeline;
import io.upshift.rehearsal.model.TimelinePlan;
import io.upshift.rehearsal.synthetic.LevelCluster;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The rehearsal's HTML page in a real browser: Debian's Chromium, headless, offline, takes a
 * screenshot of it, and the bars are found in it by their colours: one band of run-level bars per
 * run-level, one band of node bars per lane, and the stalled lanes red.
 */
@Tag("e2e")
class HtmlInChromiumTest {
    @TempDir Path dir;

    static Rehearsal rehearsal() {
        ClusterFacts facts = Facts.of(12);
        Target target = Facts.target(LevelCluster.TO);
        List<Blocker> stalls = Stalls.of(facts, target);
        Durations durations = Durations.learn(facts, target.levels());
        Timeline plan = TimelinePlan.of(facts, target, durations, stalls);
        return new Rehearsal(
                "a test",
                "2026-11-20T10:00:00Z",
                LevelCluster.FROM,
                target,
                stalls,
                durations,
                plan,
                Rehearsal.Simulation.notRun("a test"),
                List.of());
    }

    @Test
    void chromiumDrawsEveryRunLevelEveryLaneAndTheStallsInRed() throws Exception {
        Path page =
                Files.writeString(dir.resolve("rehearsal.html"), HtmlReport.render(rehearsal()));
        Path shot = dir.resolve("shot.png");
        Process chromium =
                new ProcessBuilder(
                                "chromium",
                                "--headless",
                                "--no-sandbox",
                                "--disable-gpu",
                                "--disable-quic",
                                "--no-first-run",
                                "--disable-background-networking",
                                "--disable-component-update",
                                "--disable-sync",
                                "--hide-scrollbars",
                                "--force-device-scale-factor=1",
                                "--user-data-dir=" + dir.resolve("profile"),
                                "--window-size=1160,1000",
                                "--screenshot=" + shot,
                                page.toUri().toString())
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("chromium.log").toFile())
                        .start();
        assertThat(chromium.waitFor(90, TimeUnit.SECONDS)).as("chromium took over 90 s").isTrue();
        assertThat(chromium.exitValue()).as(Files.readString(dir.resolve("chromium.log"))).isZero();
        BufferedImage image = ImageIO.read(shot.toFile());

        // 8 run-levels, each its own row; the master pool's lane, the worker pool's two lanes
        assertThat(bands(image, HtmlReport.RUN_LEVEL, 2)).isEqualTo(8);
        assertThat(bands(image, HtmlReport.NODE, 40)).isEqualTo(2);
        // both worker lanes end in a node that never finishes, drawn red to the edge
        assertThat(bands(image, HtmlReport.STALLED, 60)).isEqualTo(2);
    }

    /**
     * Runs of consecutive pixel rows each holding at least {@code least} pixels of {@code colour}:
     * the bars of one row of the drawing.
     */
    static int bands(BufferedImage image, String colour, int least) {
        int rgb = Integer.parseInt(colour.substring(1), 16);
        int bands = 0;
        boolean in = false;
        for (int y = 0; y < image.getHeight(); y++) {
            int n = 0;
            for (int x = 0; x < image.getWidth(); x++) if (near(image.getRGB(x, y), rgb)) n++;
            boolean row = n >= least;
            if (row && !in) bands++;
            in = row;
        }
        return bands;
    }

    private static boolean near(int argb, int rgb) {
        for (int shift = 0; shift <= 16; shift += 8) {
            if (Math.abs(((argb >> shift) & 0xff) - ((rgb >> shift) & 0xff)) > 3) return false;
        }
        return true;
    }
}
