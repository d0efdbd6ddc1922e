package io.upshift.releases.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.Releases;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.PayloadDir;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** Where {@code release new} takes the release's time from: --created, SOURCE_DATE_EPOCH. */
class NewCommandTest {

    @TempDir Path dir;

    @Test
    void createdAndSourceDateEpochGiveTheTimeAndTheSameTimeTheSameDigest() throws Exception {
        Path payload = PayloadDir.at(dir.resolve("p")).version("1.0.0").write();
        String byFlag = publish(payload, Map.of(), "a", "--created", "2026-01-01T01:00:00+01:00");
        String byEnv = publish(payload, Map.of("SOURCE_DATE_EPOCH", "1767225600"), "b");
        String flagWins =
                publish(
                        payload,
                        Map.of("SOURCE_DATE_EPOCH", "1"),
                        "c",
                        "--created",
                        "2026-01-01T00:00:00Z");
        assertThat(byEnv).isEqualTo(byFlag);
        assertThat(flagWins).isEqualTo(byFlag);
        assertThat(
                        new Releases(DockerCredentials.none(), false, w -> {})
                                .info(ImageRef.parse(layout("a")))
                                .createdText())
                .isEqualTo("2026-01-01T00:00:00Z");
        String other = publish(payload, Map.of(), "d", "--created", "2026-01-01T00:00:01Z");
        assertThat(other).isNotEqualTo(byFlag);
    }

    @Test
    void aTimeThatIsNotOneIsRefusedNamingWhereItCameFrom() {
        Path payload = PayloadDir.at(dir.resolve("p")).version("1.0.0").write();
        assertThatThrownBy(() -> publish(payload, Map.of(), "a", "--created", "yesterday"))
                .isInstanceOf(ReleaseException.class)
                .hasMessage(
                        "--created \"yesterday\" is not an RFC 3339 time (e.g."
                                + " 2025-06-12T08:31:05Z)");
        assertThatThrownBy(() -> publish(payload, Map.of("SOURCE_DATE_EPOCH", "soon"), "b"))
                .isInstanceOf(ReleaseException.class)
                .hasMessage("SOURCE_DATE_EPOCH \"soon\" is not a number of seconds since 1970");
        assertThatThrownBy(
                        () -> publish(payload, Map.of(), "c", "--created", "1969-07-20T20:17:40Z"))
                .isInstanceOf(ReleaseException.class)
                .hasMessage(
                        "--created 1969-07-20T20:17:40Z: 1969-07-20T20:17:40Z is before"
                                + " 1970-01-01T00:00:00Z");
    }

    /** Runs {@code release new} into layout tag {@code tag}; returns the digest published. */
    private String publish(Path payload, Map<String, String> env, String tag, String... more)
            throws Exception {
        NewCommand command = new NewCommand();
        command.environment = env;
        StringWriter out = new StringWriter();
        CommandLine cl = new CommandLine(command);
        cl.setOut(new PrintWriter(out, true));
        String[] args = {"--from", payload.toString(), "--version", "1.0.0", "--to", layout(tag)};
        String[] all = Arrays.copyOf(args, args.length + more.length);
        System.arraycopy(more, 0, all, args.length, more.length);
        cl.parseArgs(all);
        command.call();
        return out.toString().strip().replaceFirst(".*@", "");
    }

    private String layout(String tag) {
        return "oci:" + dir.resolve("images") + ":" + tag;
    }
}
