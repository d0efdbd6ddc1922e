package io.upshift.cli;

import picocli.CommandLine;

/**
 * Turns a failed command into one line on stderr, "upshift: what went wrong", and exit code 2; the stack trace
 * only with {@code --verbose}.
 */
final class Errors implements CommandLine.IExecutionExceptionHandler {
    @Override
    public int handleExecutionException(Exception e, CommandLine cl, CommandLine.ParseResult parsed) {
        boolean verbose = parsed.subcommands().stream().anyMatch(p -> p.hasMatchedOption("--verbose"))
                || parsed.hasMatchedOption("--verbose");
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        cl.getErr().println("upshift: " + message.strip());
        if (verbose) {
            e.printStackTrace(cl.getErr());
        }
        return 2;
    }
}
