package io.upshift.releases.command;

import io.upshift.api.files.DiskErrors;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.NodeImageManifest;
import io.upshift.releases.image.ReleaseTime;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.releases.image.TrustManifest;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.verify.Keyring;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.DateTimeException;
import java.time.Instant;
import java.time.OffsetDateTime;
import java.time.format.DateTimeParseException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(
        name = "new",
        description = {
            "Build a release image from a payload directory (manifests/, release-manifests/) and"
                    + " publish it.",
            "The image's release-metadata and image-references are written for --version, in the"
                    + " JSON oc adm release new writes; an invalid payload is refused before"
                    + " anything is published."
        })
public final class NewCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    // its own --version (the release's) leaves no room for the standard mixin's: help is declared
    // here
    @Option(
            names = {"-h", "--help"},
            usageHelp = true,
            description = "Show this help message and exit.")
    boolean help;

    @Option(
            names = "--from",
            required = true,
            paramLabel = "DIR",
            description = "The payload directory.")
    Path from;

    @Option(
            names = "--version",
            required = true,
            paramLabel = "V",
            description = "The release version, e.g. 4.15.2.")
    String version;

    @Option(
            names = "--previous",
            split = ",",
            paramLabel = "V1,V2",
            description =
                    "Versions this release may be updated from (default: the payload's own list).")
    List<String> previous;

    @Option(
            names = "--to",
            required = true,
            paramLabel = "REF",
            description = "docker://HOST[:PORT]/REPO:TAG or oci:PATH[:TAG].")
    String to;

    @Option(
            names = "--base",
            paramLabel = "REF",
            description = {
                "Lay the payload on this image, Upshift's own (upshift image): the release image"
                    + " then runs Upshift, as an OpenShift release image runs the cluster-version"
                    + " operator: deploy/'s Deployment"
                    + " openshift-cluster-version/cluster-version-operator, running the release"
                    + " image with --release, is added to a payload without one and replaces"
                    + " upstream's operator in an OpenShift payload (a warning line says so)."
                    + " Default: the payload alone. With or without it, a payload that would run a"
                    + " second cluster-version operator is refused, naming its manifest."
            })
    String base;

    @Option(
            names = "--trust",
            paramLabel = "KEY",
            description = {
                "Trust this armored public keyring (release keygen's .pub, gpg --export --armor)"
                        + " for the releases after this one: the payload gets the verification"
                        + " ConfigMap openshift-config-managed/release-verification (manifests/"
                        + TrustManifest.FILE
                        + "); repeat for several keys, all of which must sign. The --from directory"
                        + " is not changed."
            })
    List<Path> trust;

    @Option(
            names = "--node-image",
            paramLabel = "REF",
            description = {
                "The node image (name@sha256:digest) every config the release renders names: its"
                    + " nodes boot it (rpm-ostree hosts rebase to it; other systemd hosts take it"
                    + " with deploy/host/node-image). Set as baseOSContainerImage of the payload's"
                    + " ConfigMap machine-config-osimageurl, added before machine-config-templates"
                    + " where the payload has none. The --from directory is not changed."
            })
    String nodeImage;

    @Option(
            names = "--created",
            paramLabel = "TIME",
            description = {
                "The release's creation time (RFC 3339, e.g. 2025-06-12T08:31:05Z; whole seconds):"
                    + " its image config's created and history, its ImageStream's creationTimestamp"
                    + " and its payload files' times, so the same payload and time make the same"
                    + " digest. Default: $SOURCE_DATE_EPOCH (seconds since 1970) when set, else the"
                    + " creationTimestamp of the payload's release-manifests/image-references, else"
                    + " the newest modification time of its files."
            })
    String created;

    /** The environment, for SOURCE_DATE_EPOCH; tests give their own. */
    Map<String, String> environment = System.getenv();

    @Mixin RegistryOptions registry;

    @Override
    public Integer call() throws ReleaseException, IOException {
        var err = spec.commandLine().getErr();
        // chosen before --trust copies the payload: the copy's file times are now's
        Instant time = releaseTime();
        boolean trusting = trust != null && !trust.isEmpty();
        Path payload = trusting || nodeImage != null ? copy() : from;
        try {
            ResolvedImage image =
                    registry.releases(err)
                            .publish(
                                    payload,
                                    version,
                                    previous,
                                    time,
                                    base == null ? null : ImageRef.parse(base),
                                    ImageRef.parse(to),
                                    new ProgressLine(err, "pushed"));
            spec.commandLine().getOut().println("Published " + version + " as " + image.pullspec());
        } finally {
            if (payload != from) FileTrees.deleteQuietly(payload);
        }
        return 0;
    }

    /** --created, else SOURCE_DATE_EPOCH, else what the payload gives (ReleaseTime). */
    private Instant releaseTime() throws ReleaseException {
        if (created != null) {
            try {
                return ReleaseTime.checked(
                        OffsetDateTime.parse(created).toInstant(), "--created " + created + ":");
            } catch (DateTimeParseException e) {
                throw new ReleaseException(
                        Reason.RELEASE_METADATA_INVALID,
                        "--created \""
                                + created
                                + "\" is not an RFC 3339 time (e.g. 2025-06-12T08:31:05Z)");
            }
        }
        String epoch = environment.get("SOURCE_DATE_EPOCH");
        if (epoch != null && !epoch.isEmpty()) {
            try {
                return ReleaseTime.checked(
                        Instant.ofEpochSecond(Long.parseLong(epoch)), "SOURCE_DATE_EPOCH:");
            } catch (NumberFormatException | DateTimeException e) {
                throw new ReleaseException(
                        Reason.RELEASE_METADATA_INVALID,
                        "SOURCE_DATE_EPOCH \""
                                + epoch
                                + "\" is not a number of seconds since 1970");
            }
        }
        return ReleaseTime.of(from); // a missing payload is refused by the build, naming it
    }

    /** A copy of the payload with the --trust keys and the --node-image. */
    private Path copy() throws ReleaseException, IOException {
        if (!Files.isDirectory(from))
            throw new ReleaseException(
                    Reason.PAYLOAD_NOT_FOUND, from + ": no such payload directory (--from)");
        Path copy = Files.createTempDirectory("upshift-release-");
        try {
            try (var walk = Files.walk(from)) {
                for (Path p : (Iterable<Path>) walk::iterator) {
                    Path to = copy.resolve(from.relativize(p).toString());
                    if (Files.isDirectory(p)) Files.createDirectories(to);
                    else Files.copy(p, to);
                }
            }
            if (trust != null && !trust.isEmpty()) trust(copy);
            if (nodeImage != null) {
                String file = NodeImageManifest.apply(copy, version, nodeImage);
                spec.commandLine().getErr().println("node image " + nodeImage + " set in " + file);
            }
            return copy;
        } catch (IOException | ReleaseException | RuntimeException e) {
            FileTrees.deleteQuietly(copy);
            throw e;
        }
    }

    /** The verification ConfigMap trusting the --trust keys, written into {@code copy}. */
    private void trust(Path copy) throws ReleaseException, IOException {
        Map<String, String> keyrings = new TreeMap<>();
        for (Path key : trust) {
            String armored;
            try {
                armored = Files.readString(key, StandardCharsets.US_ASCII);
            } catch (IOException e) {
                throw new ReleaseException(
                        Reason.KEY_INVALID,
                        "cannot read --trust " + key + ": " + DiskErrors.reason(e),
                        e);
            }
            Keyring.parse(
                    key.toString(),
                    armored.getBytes(
                            StandardCharsets.US_ASCII)); // refused here, not in the cluster
            if (keyrings.put(TrustManifest.keyringName(key.getFileName().toString()), armored)
                    != null) {
                throw new ReleaseException(
                        Reason.KEY_INVALID,
                        "--trust " + key + ": another key file has the same name");
            }
        }
        Path file = Files.createDirectories(copy.resolve("manifests")).resolve(TrustManifest.FILE);
        if (Files.exists(file)) {
            throw new ReleaseException(
                    Reason.MANIFEST_INVALID,
                    from.resolve("manifests").resolve(TrustManifest.FILE)
                            + " exists already: leave out --trust, or that file");
        }
        Files.writeString(file, TrustManifest.of(keyrings));
    }
}
