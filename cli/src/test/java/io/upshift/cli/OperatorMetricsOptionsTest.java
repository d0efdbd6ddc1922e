package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift operator}'s metrics options are refused in one line, exit 2, before anything
 * starts.
 */
class OperatorMetricsOptionsTest {
    @TempDir Path dir;

    @Test
    void badMetricsOptionsAreRefusedBeforeAnythingStarts() throws Exception {
        Path kubeconfig = CliRun.kubeconfig(dir, "https://127.0.0.1:1");
        CliRun.Result auth =
                CliRun.run(
                        "operator",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--metrics-port",
                        "9099",
                        "--metrics-auth",
                        "basic");
        assertThat(auth.code()).isEqualTo(2);
        assertThat(auth.err()).contains("--metrics-auth must be none or token, not \"basic\"");

        CliRun.Result half =
                CliRun.run(
                        "operator",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--metrics-port",
                        "9099",
                        "--metrics-tls-cert",
                        dir.resolve("tls.crt").toString());
        assertThat(half.code()).isEqualTo(2);
        assertThat(half.err()).contains("--metrics-tls-cert and --metrics-tls-key go together");

        CliRun.Result missing =
                CliRun.run(
                        "operator",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--metrics-port",
                        "9099",
                        "--metrics-tls-cert",
                        dir.resolve("tls.crt").toString(),
                        "--metrics-tls-key",
                        dir.resolve("tls.key").toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err())
                .contains(
                        dir.resolve("tls.crt")
                                + ": no such file (--metrics-tls-cert/--metrics-tls-key)");

        Files.writeString(dir.resolve("tls.crt"), "not a certificate");
        Files.writeString(dir.resolve("tls.key"), "not a key");
        CliRun.Result unreadable =
                CliRun.run(
                        "operator",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--metrics-port",
                        "9099",
                        "--metrics-tls-cert",
                        dir.resolve("tls.crt").toString(),
                        "--metrics-tls-key",
                        dir.resolve("tls.key").toString());
        assertThat(unreadable.code()).isEqualTo(2);
        assertThat(unreadable.err())
                .contains(
                        "--metrics-tls-cert/--metrics-tls-key: "
                                + dir.resolve("tls.crt")
                                + ": not a PEM certificate");
    }
}
