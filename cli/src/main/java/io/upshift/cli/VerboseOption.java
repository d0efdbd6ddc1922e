package io.upshift.cli;

import picocli.CommandLine.Option;

/**
 * The {@code --verbose} option (a picocli mixin): {@link Errors} then prints the stack trace with
 * the error.
 */
public final class VerboseOption {
    @Option(names = "--verbose", description = "Print stack traces with errors.")
    boolean verbose;
}
