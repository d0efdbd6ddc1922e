package io.upshift.releases.command;

import picocli.CommandLine.Command;

/**
 * {@code upshift release}: build, publish, inspect, unpack, order, sign and verify release images.
 */
@Command(
        name = "release",
        mixinStandardHelpOptions = true,
        description = "Build, publish, inspect, extract, sign and verify release images.",
        subcommands = {
            NewCommand.class,
            InfoCommand.class,
            ExtractCommand.class,
            CopyPayloadCommand.class,
            GraphCommand.class,
            SignCommand.class,
            SignaturesCommand.class,
            VerifyCommand.class,
            KeygenCommand.class
        })
public final class ReleaseCommand {}
