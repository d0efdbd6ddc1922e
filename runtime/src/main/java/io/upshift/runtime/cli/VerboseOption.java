package io.upshift.runtime.cli;

import picocli.CommandLine.Option;

/**
 * The {@code --verbose} option (a picocli mixin): the command line's error handler ({@code
 * io.upshift.cli.Errors}) then prints the stack trace with the error.
 */
public final class VerboseOption {
    @Option(names = "--verbose", description = "Print stack traces with errors.")
    boolean verbose;
}
