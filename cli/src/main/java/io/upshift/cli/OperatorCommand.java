package io.upshift.cli;

import java.util.concurrent.Callable;
import picocli.CommandLine.Command;

/** {@code upshift operator}: runs the controllers. */
@Command(name = "operator", mixinStandardHelpOptions = true, description = "Run the Upshift controllers against a cluster.")
final class OperatorCommand implements Callable<Integer> {
    @Override
    public Integer call() {
        throw new UnsupportedOperationException("not yet");
    }
}
