package io.upshift.cli;

import io.upshift.clusterversion.command.OperatorCommand;
import io.upshift.clusterversion.command.RecommendCommand;
import io.upshift.clusterversion.command.RollbackCommand;
import io.upshift.clusterversion.command.UpgradeCommand;
import io.upshift.graph.command.GraphCommand;
import io.upshift.pools.command.AgentCommand;
import io.upshift.pools.command.PoolsCommand;
import io.upshift.rehearsal.command.RehearseCommand;
import io.upshift.releases.command.ReleaseCommand;
import io.upshift.status.command.StatusCommand;
import java.io.PrintWriter;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code upshift} command line. */
@Command(
        name = "upshift",
        mixinStandardHelpOptions = true,
        versionProvider = Upshift.Version.class,
        description =
                "Takes a cluster from one signed release to the next and shows where the update"
                        + " stands.",
        subcommands = {
            DemoCommand.class,
            StatusCommand.class,
            UpgradeCommand.class,
            RollbackCommand.class,
            RecommendCommand.class,
            RehearseCommand.class,
            ReleaseCommand.class,
            ImageCommand.class,
            GraphCommand.class,
            OperatorCommand.class,
            PoolsCommand.class,
            AgentCommand.class,
            CommandLine.HelpCommand.class
        })
public final class Upshift {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /**
     * Runs a command line and returns its exit code: 0 success, 1 a failed check, 2 bad input or an
     * error.
     */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Upshift(), new Factory());
        cl.setExecutionExceptionHandler(new Errors());
        cl.setParameterExceptionHandler(Upshift::usageError);
        return cl;
    }

    /**
     * A command line that cannot run, in one line with what to do: a mistyped command with the
     * closest ones, a missing one with the usage of the command that needs it; exit code 2.
     */
    private static int usageError(CommandLine.ParameterException e, String[] args) {
        CommandLine cl = e.getCommandLine();
        PrintWriter err = cl.getErr();
        String command = cl.getCommandSpec().qualifiedName();
        if (e instanceof CommandLine.UnmatchedArgumentException u
                && !u.isUnknownOption()
                && !cl.getSubcommands().isEmpty()
                && !u.getUnmatched().isEmpty()) {
            List<String> close =
                    CommandSuggestions.closest(
                            u.getUnmatched().get(0), cl.getSubcommands().keySet());
            err.println(
                    "upshift: '"
                            + u.getUnmatched().get(0)
                            + "' is not a command of "
                            + command
                            + (close.isEmpty()
                                    ? "; " + command + " --help lists them"
                                    : "; did you mean " + String.join(" or ", close) + "?"));
            return 2;
        }
        if (e instanceof CommandLine.UnmatchedArgumentException u
                && u.isUnknownOption()
                && !u.getUnmatched().isEmpty()) {
            String option = u.getUnmatched().get(0).replaceFirst("=.*", "");
            List<String> names = new ArrayList<>();
            cl.getCommandSpec().options().forEach(o -> names.addAll(List.of(o.names())));
            List<String> close = CommandSuggestions.closest(option, names);
            err.println(
                    "upshift: "
                            + command
                            + " has no option "
                            + option
                            + (close.isEmpty()
                                    ? "; " + command + " --help lists them"
                                    : "; did you mean " + String.join(" or ", close) + "?"));
            return 2;
        }
        if (e.getMessage().startsWith("Missing required subcommand")) {
            err.println("upshift: " + command + " needs a command:");
            cl.usage(err);
            return 2;
        }
        err.println("upshift: " + e.getMessage());
        return 2;
    }

    /**
     * Makes the commands; {@code rehearse} gets the way to its simulator, which is in demo-lib/
     * beside the jar ({@link DemoClasses}) when Upshift runs from a build's jar.
     */
    private static final class Factory implements CommandLine.IFactory {
        @Override
        public <K> K create(Class<K> type) throws Exception {
            if (type == RehearseCommand.class)
                return type.cast(new RehearseCommand(Upshift::withSimulator));
            return CommandLine.defaultFactory().create(type);
        }
    }

    /**
     * Runs {@code args} (an {@code upshift rehearse}) again with demo-lib/ on the class path, where
     * its simulator is; empty when there is none to run it with (Upshift's image, or classes
     * already on the class path).
     */
    static Optional<Integer> withSimulator(String[] args) throws Exception {
        Optional<Path> jar = ownJar();
        if (DemoClasses.present()
                || jar.isEmpty()
                || !Files.isDirectory(jar.get().resolveSibling(DemoClasses.DIRECTORY)))
            return Optional.empty();
        return Optional.of(DemoClasses.runWithDemoLib(jar, args));
    }

    /**
     * The jar Upshift runs from, its libraries in {@code lib/} beside it (what {@code upshift
     * image} packs); empty when it runs from classes (tests, an IDE).
     */
    static Optional<Path> ownJar() {
        try {
            Path location =
                    Path.of(
                            Upshift.class
                                    .getProtectionDomain()
                                    .getCodeSource()
                                    .getLocation()
                                    .toURI());
            boolean jar =
                    Files.isRegularFile(location)
                            && Files.isDirectory(location.resolveSibling("lib"));
            return jar ? Optional.of(location) : Optional.empty();
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The version from the jar manifest, or "development" when run from classes. */
    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Upshift.class.getPackage().getImplementationVersion();
            return new String[] {"upshift " + (v == null ? "development" : v)};
        }
    }
}
