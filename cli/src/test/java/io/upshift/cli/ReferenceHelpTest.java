package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * Each {@code --help} block of docs/reference.md is the command's own help, as the command line
 * prints it now; every command has one. With {@code -Dreference.write=true} the test writes the
 * blocks from the commands instead: {@code ./mvnw -B -pl cli -am test -Dtest=ReferenceHelpTest
 * -Dsurefire.failIfNoSpecifiedTests=false -Dreference.write=true}.
 */
class ReferenceHelpTest {

    static final Path REFERENCE = Path.of("../docs/reference.md");

    /** A heading naming a command, then its help in a text block. */
    static final Pattern BLOCK =
            Pattern.compile(
                    "(### `(upshift(?: [a-z-]+)*)`\\n\\n```text\\n)(.*?)(```\\n)", Pattern.DOTALL);

    @Test
    void everyHelpBlockIsTheCommandsOwnHelp() throws Exception {
        String doc = Files.readString(REFERENCE);
        Matcher m = BLOCK.matcher(doc);
        StringBuilder written = new StringBuilder();
        List<String> documented = new ArrayList<>();
        List<String> differing = new ArrayList<>();
        while (m.find()) {
            String command = m.group(2);
            documented.add(command);
            String help = help(command);
            if (!help.equals(m.group(3))) differing.add(command);
            m.appendReplacement(written, Matcher.quoteReplacement(m.group(1) + help + m.group(4)));
        }
        m.appendTail(written);
        if (Boolean.getBoolean("reference.write")) {
            Files.writeString(REFERENCE, written.toString());
            return;
        }
        assertThat(differing)
                .as(
                        "commands whose help differs from docs/reference.md (rewrite the blocks"
                                + " with -Dreference.write=true)")
                .isEmpty();
        assertThat(documented)
                .as("every command has its help in docs/reference.md")
                .containsAll(commands());
    }

    private static String help(String command) {
        List<String> args = new ArrayList<>(List.of(command.split(" ")));
        args.remove(0);
        args.add("--help");
        CliRun.Result r = CliRun.run(args.toArray(String[]::new));
        assertThat(r.code()).as(command + " --help").isZero();
        return r.out();
    }

    private static List<String> commands() {
        List<String> out = new ArrayList<>();
        collect(Upshift.commandLine(), "upshift", out);
        return out;
    }

    private static void collect(picocli.CommandLine parent, String name, List<String> out) {
        out.add(name);
        parent.getSubcommands()
                .forEach(
                        (sub, cl) -> {
                            if (!sub.equals("help")) collect(cl, name + " " + sub, out);
                        });
    }
}
