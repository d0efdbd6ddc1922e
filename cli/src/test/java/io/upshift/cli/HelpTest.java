package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

/** Every command answers --help with its usage (recommend's own --version once hid it). */
class HelpTest {

    @Test
    void everyCommandPrintsItsUsage() {
        everyCommandUnder(Upshift.commandLine(), new String[0]);
    }

    /** Subcommands of subcommands too: {@code release new} has a --version of its own. */
    private static void everyCommandUnder(picocli.CommandLine parent, String[] path) {
        for (var e : parent.getSubcommands().entrySet()) {
            if (e.getKey().equals("help")) continue;
            String[] command = Arrays.copyOf(path, path.length + 1);
            command[path.length] = e.getKey();
            String[] args = Arrays.copyOf(command, command.length + 1);
            args[command.length] = "--help";
            CliRun.Result r = CliRun.run(args);
            String name = String.join(" ", command);
            assertThat(r.code()).as(name + " --help: " + r.err()).isZero();
            assertThat(r.out()).as(name).startsWith("Usage: upshift " + name);
            everyCommandUnder(e.getValue(), command);
        }
    }

    @Test
    void commandsThatTalkToAClusterTakeKubeconfig() {
        for (String name :
                new String[] {
                    "status", "upgrade", "rollback", "recommend", "operator", "pools", "agent"
                }) {
            assertThat(CliRun.run(name, "--help").out()).as(name).contains("--kubeconfig=FILE");
        }
    }
}
