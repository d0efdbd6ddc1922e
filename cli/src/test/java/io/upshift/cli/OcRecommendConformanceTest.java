package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every case of {@code ../shared/fixtures/oc-recommend} through {@code upshift recommend
 * --mock-clusterversion}: plain, {@code --show-outdated-releases} and {@code --version V}, compared
 * byte for byte with oc's output. As in oc's own test, the expected text is stdout followed, on
 * failure, by "\nerror: " and the error. oc ran its cases from a folder named {@code examples},
 * which its NoTestData message prints; that path prefix is the one thing normalized.
 */
class OcRecommendConformanceTest {

    static Path fixtures() {
        return Path.of(
                System.getProperty("upshift.fixtures", "../../shared/fixtures"), "oc-recommend");
    }

    static Stream<Arguments> cases() throws IOException {
        Path dir = fixtures();
        if (!Files.isDirectory(dir))
            return Stream.of(Arguments.of("(fixtures absent)", null, null));
        List<Arguments> out = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path expected : files.sorted().toList()) {
                String name = expected.getFileName().toString();
                String base =
                        name.replaceFirst(
                                "\\.(output|show-outdated-releases-output|version-.*-output)$", "");
                if (base.equals(name)) continue;
                List<String> args =
                        new ArrayList<>(
                                List.of(
                                        "recommend",
                                        "--mock-clusterversion",
                                        dir.resolve(base + "-cv.yaml").toString()));
                if (name.endsWith(".show-outdated-releases-output"))
                    args.add("--show-outdated-releases");
                if (name.contains(".version-"))
                    args.addAll(
                            List.of(
                                    "--version",
                                    name.replaceFirst(".*\\.version-(.*)-output$", "$1")));
                out.add(Arguments.of(name, expected, args));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void matchesOc(String name, Path expected, List<String> args) throws IOException {
        Assumptions.assumeTrue(expected != null, "shared fixtures not present");
        StringWriter out = new StringWriter(), err = new StringWriter();
        var cl = Upshift.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args.toArray(String[]::new));
        String actual = out.toString();
        if (code != 0) {
            String last = err.toString().strip().lines().reduce((a, b) -> b).orElse("");
            assertThat(last).startsWith("upshift: ");
            actual += "\nerror: " + last.substring("upshift: ".length()) + "\n";
        }
        actual = actual.replace(fixtures().toString() + "/", "examples/");
        assertThat(actual).isEqualTo(Files.readString(expected));
    }
}
