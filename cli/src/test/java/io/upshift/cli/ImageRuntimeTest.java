package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.image.ImageJdk;
import io.upshift.releases.image.UpshiftImage;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Java runtime of Upshift's image holds every module Upshift needs: the whole demo runs on it.
 */
@Tag("e2e")
class ImageRuntimeTest {

    @TempDir Path dir;

    @Test
    void theDemoRunsOnTheImagesJavaRuntime() throws Exception {
        Path runtime = UpshiftImage.runtime(ImageJdk.forImage(), dir.resolve("jre"));
        Process p =
                new ProcessBuilder(
                                List.of(
                                        runtime.resolve("bin/java").toString(),
                                        "-cp",
                                        System.getProperty("java.class.path"),
                                        Upshift.class.getName(),
                                        "demo",
                                        "--masters",
                                        "0",
                                        "--workers",
                                        "0",
                                        "--operators",
                                        "2",
                                        "--run-levels",
                                        "1",
                                        "--rollout-seconds",
                                        "0.2",
                                        "--plain"))
                        .redirectErrorStream(true)
                        .start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        assertThat(out)
                .contains("Updated 4.18.1 -> 4.18.2 in ")
                .doesNotContain("NoClassDefFoundError");
    }
}
