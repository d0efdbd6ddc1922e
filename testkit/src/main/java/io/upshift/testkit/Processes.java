package io.upshift.testkit;

import java.util.concurrent.TimeUnit;

/** The services the tests start as processes of their own (a registry, Prometheus). */
final class Processes {
    private Processes() {}

    /** Asks the process to stop, and kills it when it has not within 10 s. */
    static void stop(Process process) {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
