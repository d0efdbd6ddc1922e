package io.upshift.testkit;

import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The embedded API server logs every request at INFO: too much for a demo, a test or a benchmark.
 */
public final class MockServerLog {
    /**
     * Held here: java.util.logging keeps loggers weakly, and a collected logger forgets its level.
     */
    private static final Logger LOG = Logger.getLogger("io.fabric8.mockwebserver");

    private MockServerLog() {}

    /** From now on, only warnings and errors. */
    public static void quiet() {
        LOG.setLevel(Level.WARNING);
    }
}
