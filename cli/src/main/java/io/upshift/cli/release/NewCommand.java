package io.upshift.cli.release;

import io.upshift.core.release.ReleaseException;
import io.upshift.release.image.ImageRef;
import io.upshift.release.image.ResolvedImage;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "new",
        description = {"Build a release image from a payload directory (manifests/, release-manifests/) and publish it.",
                "The image's release-metadata and image-references are written for --version; an invalid payload is refused before anything is published."})
public final class NewCommand implements Callable<Integer> {

    @Spec
    picocli.CommandLine.Model.CommandSpec spec;

    // its own --version (the release's) leaves no room for the standard mixin's: help is declared here
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--from", required = true, paramLabel = "DIR", description = "The payload directory.")
    Path from;

    @Option(names = "--version", required = true, paramLabel = "V", description = "The release version, e.g. 4.15.2.")
    String version;

    @Option(names = "--previous", split = ",", paramLabel = "V1,V2", description = "Versions this release may be updated from (default: the payload's own list).")
    List<String> previous;

    @Option(names = "--to", required = true, paramLabel = "REF", description = "docker://HOST[:PORT]/REPO:TAG or oci:PATH[:TAG].")
    String to;

    @Option(names = "--base", paramLabel = "REF", description = {"Lay the payload on this image, Upshift's own (upshift image): the release image then runs "
            + "Upshift, as an OpenShift release image runs the cluster-version operator, and a payload whose manifests/ has no controller Deployment "
            + "(none runs {{.ReleaseImage}}) gets deploy/'s, running the release image with --release (a warning line says so). "
            + "Default: the payload alone."})
    String base;

    @Mixin
    RegistryOptions registry;

    @Override
    public Integer call() throws ReleaseException {
        var err = spec.commandLine().getErr();
        ResolvedImage image = registry.releases(err).publish(from, version, previous, base == null ? null : ImageRef.parse(base), ImageRef.parse(to),
                new ProgressLine(err, "pushed"));
        spec.commandLine().getOut().println("Published " + version + " as " + image.pullspec());
        return 0;
    }
}
