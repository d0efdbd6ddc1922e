package io.upshift.releases.command;

import io.upshift.releases.image.PayloadCopy;
import io.upshift.releases.metadata.ReleaseException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "copy-payload",
        mixinStandardHelpOptions = true,
        description = {
            "Copy the payload of the release image this runs in (/manifests, /release-manifests) to"
                + " a directory, all or nothing (the cluster-version controller's payload-retrieval"
                + " Job does the same with the image's own cp and mv)."
        })
public final class CopyPayloadCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--from",
            defaultValue = "/",
            paramLabel = "DIR",
            description = "Where the payload directories are (default: /).")
    Path from;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "DIR",
            description = "Where to copy them; must not exist yet.")
    Path to;

    @Override
    public Integer call() throws ReleaseException {
        PayloadCopy.copy(from, to);
        spec.commandLine().getOut().println("Copied the payload to " + to);
        return 0;
    }
}
