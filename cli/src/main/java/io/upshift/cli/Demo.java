package io.upshift.cli;

import java.io.PrintWriter;

/**
 * The code of {@code upshift demo} that runs the embedded API server and the demo
 * (io.upshift.cli.demo): test code, which is not in Upshift's image; {@link DemoClasses} loads it.
 */
public interface Demo {

    /** Runs the demo as asked, printing to {@code out}; returns the exit code. */
    int run(DemoOptions options, PrintWriter out) throws Exception;
}
