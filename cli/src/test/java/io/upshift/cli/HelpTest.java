package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** Every command answers --help with its usage (recommend's own --version once hid it). */
class HelpTest {

    @Test
    void everyCommandPrintsItsUsage() {
        for (String name : Upshift.commandLine().getSubcommands().keySet()) {
            if (name.equals("help")) continue;
            CliRun.Result r = CliRun.run(name, "--help");
            assertThat(r.code()).as(name + " --help: " + r.err()).isZero();
            assertThat(r.out()).as(name).startsWith("Usage: upshift " + name);
        }
    }

    @Test
    void commandsThatTalkToAClusterTakeKubeconfig() {
        for (String name : new String[] {"status", "upgrade", "rollback", "recommend", "operator", "pools", "agent"}) {
            assertThat(CliRun.run(name, "--help").out()).as(name).contains("--kubeconfig=FILE");
        }
    }
}
