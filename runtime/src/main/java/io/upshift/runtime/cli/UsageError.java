package io.upshift.runtime.cli;

import picocli.CommandLine.Model.CommandSpec;

/**
 * A command line the command cannot take, worded as oc words its usage errors: the problem, then
 * where help is.
 */
public final class UsageError extends IllegalArgumentException {
    public UsageError(CommandSpec spec, String problem) {
        super(problem + "\nSee '" + spec.qualifiedName() + " -h' for help and examples");
    }
}
