package io.upshift.runtime.cli;

import java.util.List;
import java.util.Properties;

/**
 * The log lines of the controllers, the agents and their plumbing, for a command that runs them in
 * its own JVM and shows their work another way (the demo's status view, a rehearsal's report).
 */
public final class ControllerLogs {
    /** Where the controllers, the agents and their plumbing log from. */
    static final List<String> PACKAGES =
            List.of(
                    "io.upshift.runtime",
                    "io.upshift.releases",
                    "io.upshift.graph",
                    "io.upshift.pools",
                    "io.upshift.status",
                    "io.upshift.clusterversion");

    private ControllerLogs() {}

    /**
     * From now on they log errors only; slf4j-simple reads a logger's level when the logger is
     * made, so this is called before the controllers start.
     */
    public static void errorsOnly() {
        errorsOnly(System.getProperties());
    }

    /** As {@link #errorsOnly()}, into {@code properties}. */
    static void errorsOnly(Properties properties) {
        for (String p : PACKAGES)
            properties.setProperty("org.slf4j.simpleLogger.log." + p, "error");
    }
}
