package io.upshift.graph.server;

import io.upshift.graph.command.GraphCommand;
import picocli.CommandLine;

/**
 * {@code upshift graph ARGS} in a JVM of its own, for tests that need a server in another process.
 */
public final class GraphServeMain {
    private GraphServeMain() {}

    public static void main(String[] args) {
        System.exit(new CommandLine(new GraphCommand()).execute(args));
    }
}
