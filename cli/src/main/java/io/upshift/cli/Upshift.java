package io.upshift.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code upshift} command line. */
@Command(name = "upshift", mixinStandardHelpOptions = true, versionProvider = Upshift.Version.class,
        description = "Takes a cluster from one signed release to the next and shows where the update stands.",
        subcommands = {DemoCommand.class, StatusCommand.class, UpgradeCommand.class, RollbackCommand.class, RecommendCommand.class, ReleaseCommand.class, ImageCommand.class, GraphCommand.class, OperatorCommand.class, PoolsCommand.class, AgentCommand.class, CommandLine.HelpCommand.class})
public final class Upshift {

    public static void main(String[] args) {
        System.exit(run(args));
    }

    /** Runs a command line and returns its exit code: 0 success, 1 a failed check, 2 bad input or an error. */
    public static int run(String... args) {
        return commandLine().execute(args);
    }

    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Upshift());
        cl.setExecutionExceptionHandler(new Errors());
        cl.setParameterExceptionHandler((e, a) -> {
            e.getCommandLine().getErr().println("upshift: " + e.getMessage());
            return 2;
        });
        return cl;
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
