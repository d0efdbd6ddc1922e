package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift operator} takes upstream's {@code --always-enable-capabilities}, refusing an
 * unknown name in upstream's words before anything starts.
 */
class OperatorAlwaysEnabledTest {
    @TempDir Path dir;

    @Test
    void theFlagIsUpstreamsWithItsWords() {
        var operator = Upshift.commandLine().getSubcommands().get("operator").getCommandSpec();
        assertThat(operator.findOption("--always-enable-capabilities").description())
                .singleElement()
                .asString()
                .startsWith(
                        "List of the cluster capabilities which will always be implicitly"
                                + " enabled.");
    }

    @Test
    void anUnknownAlwaysEnabledCapabilityFailsTheStartInUpstreamsWords() throws Exception {
        Path kubeconfig = CliRun.kubeconfig(dir, "https://127.0.0.1:1");
        CliRun.Result unknown =
                CliRun.run(
                        "operator",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--always-enable-capabilities=Ingress,Ingres,Widgets");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err())
                .isEqualTo(
                        "upshift: --always-enable-capabilities was set with unknown capabilities:"
                                + " [Ingres Widgets]\n");
    }
}
