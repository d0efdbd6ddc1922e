package io.upshift.releases.command;

import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.releases.metadata.ReleaseException;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "extract",
        mixinStandardHelpOptions = true,
        description =
                "Unpack a release image's payload (manifests/, release-manifests/) into a new or"
                        + " empty directory: all of it or nothing.")
public final class ExtractCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "REF", description = "The release image, by tag or digest.")
    String ref;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "DIR",
            description = "Where to unpack; must not exist or be empty.")
    Path to;

    @Mixin RegistryOptions registry;

    @Override
    public Integer call() throws ReleaseException {
        var err = spec.commandLine().getErr();
        ResolvedImage image =
                registry.releases(err)
                        .extract(ImageRef.parse(ref), to, new ProgressLine(err, "pulled"));
        spec.commandLine().getOut().println("Extracted " + image.pullspec() + " to " + to);
        return 0;
    }
}
