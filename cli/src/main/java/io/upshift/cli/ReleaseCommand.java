package io.upshift.cli;

import io.upshift.cli.release.CopyPayloadCommand;
import io.upshift.cli.release.ExtractCommand;
import io.upshift.cli.release.GraphCommand;
import io.upshift.cli.release.InfoCommand;
import io.upshift.cli.release.KeygenCommand;
import io.upshift.cli.release.NewCommand;
import io.upshift.cli.release.SignCommand;
import io.upshift.cli.release.SignaturesCommand;
import io.upshift.cli.release.VerifyCommand;
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
