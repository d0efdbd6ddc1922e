package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
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
        assertThat(half.err()).contains("--serving-cert-file and --serving-key-file go together");

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
                                + ": no such file (--serving-cert-file/--serving-key-file; with"
                                + " --serving-cert-optional a self-signed certificate is served"
                                + " until both are there)");

        Files.writeString(dir.resolve("tls.crt"), "not a certificate");
        Files.writeString(dir.resolve("tls.key"), "not a key");
        CliRun.Result unreadable =
                CliRun.run(
                        "operator",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--metrics-port",
                        "9099",
                        "--serving-cert-file",
                        dir.resolve("tls.crt").toString(),
                        "--serving-key-file",
                        dir.resolve("tls.key").toString());
        assertThat(unreadable.code()).isEqualTo(2);
        assertThat(unreadable.err())
                .contains(
                        "--serving-cert-file/--serving-key-file: "
                                + dir.resolve("tls.crt")
                                + ": not a PEM certificate");
    }

    @Test
    void listenPlainHttpAndOptionalCertificatesAreCheckedBeforeAnythingStarts() throws Exception {
        Path kubeconfig = CliRun.kubeconfig(dir, "https://127.0.0.1:1");
        String k = kubeconfig.toString();
        String cert = dir.resolve("tls.crt").toString(), key = dir.resolve("tls.key").toString();
        String[][] cases = {
            {
                "--listen and --metrics-port say the same: give one",
                "--listen",
                ":9099",
                "--metrics-port",
                "9099"
            },
            {
                "--listen must be [HOST]:PORT (:9099, 0.0.0.0:9099), not \"9099x\"",
                "--listen",
                "9099x"
            },
            {"--listen must be [HOST]:PORT", "--listen", "127.0.0.1:70000"},
            {"--metrics-port must be a port, 0 for none", "--metrics-port", "-1"},
            {
                "--metrics-plain-http serves no certificate",
                "--metrics-port",
                "9099",
                "--metrics-plain-http",
                "--serving-cert-file",
                cert,
                "--serving-key-file",
                key
            },
            {
                "--serving-cert-optional goes with --serving-cert-file and --serving-key-file",
                "--metrics-port",
                "9099",
                "--serving-cert-optional"
            },
        };
        for (String[] c : cases) {
            List<String> args = new ArrayList<>(List.of("operator", "--kubeconfig", k));
            args.addAll(List.of(c).subList(1, c.length));
            CliRun.Result r = CliRun.run(args.toArray(String[]::new));
            assertThat(r.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(r.err()).as(String.join(" ", args)).contains(c[0]);
        }
    }
}
