package io.upshift.cli;

import io.upshift.releases.metadata.ReleaseException;
import io.upshift.runtime.cli.CheckFailedException;
import picocli.CommandLine;

/**
 * Turns a failed command into one line on stderr, "upshift: what went wrong", and exit code 2; the
 * stack trace only with {@code --verbose}.
 */
final class Errors implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(
            Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        boolean verbose = false;
        for (CommandLine.ParseResult p = parsed; p != null; p = p.subcommand())
            verbose |= p.hasMatchedOption("--verbose");
        String message =
                e instanceof ReleaseException r
                        ? r.toString()
                        : e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        cl.getErr().println("upshift: " + message.strip());
        if (verbose) {
            e.printStackTrace(cl.getErr());
        }
        return e instanceof CheckFailedException ? 1 : 2;
    }
}
