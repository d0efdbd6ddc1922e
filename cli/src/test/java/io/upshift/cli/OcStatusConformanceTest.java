package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every example of {@code oc adm upgrade status} in the shared fixtures, through {@code
 * --mock-clusterversion}, in both detail modes, compared byte for byte. Skips when the fixtures are
 * not next to the repository.
 */
class OcStatusConformanceTest {
    static Path fixtures() {
        return Path.of(
                System.getProperty("upshift.fixtures", "../../shared/fixtures"), "oc-status");
    }

    static Stream<Arguments> cases() throws IOException {
        Path dir = fixtures();
        if (!Files.isDirectory(dir)) {
            return Stream.of(Arguments.of("(fixtures absent)", "none", ""));
        }
        try (Stream<Path> files = Files.list(dir)) {
            List<String> names =
                    files.map(p -> p.getFileName().toString())
                            .filter(n -> n.endsWith("-cv.yaml"))
                            .map(n -> n.substring(0, n.length() - "-cv.yaml".length()))
                            .sorted()
                            .toList();
            return names.stream()
                    .flatMap(
                            n ->
                                    Stream.of(
                                            Arguments.of(n, "none", n + ".output"),
                                            Arguments.of(n, "all", n + ".detailed-output")));
        }
    }

    @ParameterizedTest(name = "{0} --details={1}")
    @MethodSource("cases")
    void matchesOc(String name, String details, String expectedFile) throws IOException {
        assumeTrue(Files.isDirectory(fixtures()), "shared/fixtures/oc-status is absent");
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var cl = Upshift.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code =
                cl.execute(
                        "status",
                        "--mock-clusterversion=" + fixtures().resolve(name + "-cv.yaml"),
                        "--details=" + details);
        assertThat(err.toString()).isEmpty();
        assertThat(code).isZero();
        assertThat(out.toString()).isEqualTo(Files.readString(fixtures().resolve(expectedFile)));
    }
}
