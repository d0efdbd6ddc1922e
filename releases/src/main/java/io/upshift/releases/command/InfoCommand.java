package io.upshift.releases.command;

import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ReleaseInfo;
import io.upshift.releases.metadata.ReleaseException;
import java.util.concurrent.Callable;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

@Command(
        name = "info",
        mixinStandardHelpOptions = true,
        description =
                "Show a release image as oc adm release info does (name, digest, creation time,"
                        + " OS/arch, manifest files, release metadata, component versions, images),"
                        + " then what Upshift adds: its base image, its layers and the payload's"
                        + " documents per run-level.")
public final class InfoCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(paramLabel = "REF", description = "The release image, by tag or digest.")
    String ref;

    @ArgGroup(exclusive = true)
    Listing listing = new Listing();

    /** oc's listings of the component images; one at most, as oc allows. */
    static final class Listing {
        @Option(
                names = "--commits",
                description =
                        "List the component images as oc adm release info --commits does: name,"
                                + " source repository and commit (the tags' annotations"
                                + " io.openshift.build.source-location and"
                                + " io.openshift.build.commit.id).")
        boolean commits;

        @Option(
                names = "--pullspecs",
                description =
                        "List the component images as oc adm release info --pullspecs does: name"
                                + " and pull spec.")
        boolean pullspecs;

        ReleaseInfo.Images images() {
            return commits
                    ? ReleaseInfo.Images.COMMITS
                    : pullspecs ? ReleaseInfo.Images.PULLSPECS : ReleaseInfo.Images.DIGESTS;
        }
    }

    @Mixin RegistryOptions registry;

    @Override
    public Integer call() throws ReleaseException {
        var out = spec.commandLine().getOut();
        out.print(
                registry.releases(spec.commandLine().getErr())
                        .info(ImageRef.parse(ref))
                        .render(listing.images()));
        out.flush();
        return 0;
    }
}
