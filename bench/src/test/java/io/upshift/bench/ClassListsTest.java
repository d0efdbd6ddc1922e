package io.upshift.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Two processes' class lists made into one: each class once, ids unique, other loaders out. */
class ClassListsTest {

    @Test
    void eachClassOnceWithIdsNumberedAnewAndOtherLoadersLeftOut(@TempDir Path dir)
            throws Exception {
        Path operator =
                Files.write(
                        dir.resolve("operator"),
                        List.of(
                                "# dumped",
                                "java/lang/Object id: 0",
                                "io/upshift/A id: 1",
                                "@lambda-proxy io/upshift/A run ()V",
                                "x/Y id: 2 super: 0 source: /tmp/x.jar"));
        Path pools =
                Files.write(
                        dir.resolve("pools"),
                        List.of(
                                "java/lang/Object id: 0",
                                "io/upshift/B id: 1",
                                "@lambda-proxy io/upshift/A run ()V",
                                "@cp io/upshift/B 1 2"));
        List<String> out = new ArrayList<>();

        ClassLists.merge(List.of(operator, pools), out);

        assertThat(out)
                .containsExactly(
                        "java/lang/Object id: 0",
                        "io/upshift/A id: 1",
                        "@lambda-proxy io/upshift/A run ()V",
                        "io/upshift/B id: 2",
                        "@cp io/upshift/B 1 2");
    }
}
