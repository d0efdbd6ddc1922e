package io.upshift.releases.command;

import io.upshift.releases.image.ImageRef;
import io.upshift.releases.metadata.ReleaseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "info",
        mixinStandardHelpOptions = true,
        description =
                "Show a release image: version, digest, metadata, component images and manifests"
                        + " per run-level.")
public final class InfoCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "REF", description = "The release image, by tag or digest.")
    String ref;

    @Mixin RegistryOptions registry;

    @Override
    public Integer call() throws ReleaseException {
        var out = spec.commandLine().getOut();
        out.print(
                registry.releases(spec.commandLine().getErr()).info(ImageRef.parse(ref)).render());
        out.flush();
        return 0;
    }
}
