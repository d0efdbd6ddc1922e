package io.upshift.demo;

import io.upshift.releases.image.BuiltImage;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageBuilder;
import io.upshift.releases.image.ImageJdk;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.Releases;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.releases.image.UpshiftImage;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.releases.verify.DirectoryStore;
import io.upshift.releases.verify.SigningKeys;
import io.upshift.testkit.RawImages;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * Where the demo's releases are made: release images in an OCI layout ({@code releases/} of the
 * work directory), signed with a key generated for the run, their signatures in a directory store
 * ({@code signatures/}) that the payloads' verification ConfigMap names. With Upshift's jar, the
 * releases are self-hosting, as OpenShift's: Upshift's image is built first and each release laid
 * on it, so that the release image runs its own controller.
 */
public final class DemoReleases {

    private final Path work;
    private final Clock clock;
    private final ReleasePayloads payloads;
    private final SigningKeys keys;
    private final Path store;
    private final ImageRef base;
    private final Releases registry = new Releases(DockerCredentials.none(), false, w -> {});
    private final Map<String, Map<String, Map<String, String>>> declared =
            new ConcurrentHashMap<>();

    private DemoReleases(
            Path work,
            Clock clock,
            ReleasePayloads payloads,
            SigningKeys keys,
            Path store,
            ImageRef base) {
        this.work = work;
        this.clock = clock;
        this.payloads = payloads;
        this.keys = keys;
        this.store = store;
        this.base = base;
    }

    /**
     * Generates the signing key and, given {@code upshiftJar} (with the {@code lib/} beside it),
     * builds Upshift's image for the releases to be laid on; null: the releases hold their payload
     * only.
     */
    static DemoReleases create(
            Path work, Clock clock, ReleasePayloads payloads, Path upshiftJar, Consumer<String> log)
            throws Exception {
        SigningKeys keys =
                SigningKeys.generate("Upshift demo <demo@upshift.invalid>", clock.instant());
        Path store = Files.createDirectories(work.resolve("signatures"));
        ImageRef base = null;
        if (upshiftJar != null) {
            long t0 = System.nanoTime();
            var image =
                    UpshiftImage.build(
                            new UpshiftImage.Inputs(
                                    upshiftJar,
                                    upshiftJar.resolveSibling("lib"),
                                    ImageJdk.forImage().home(),
                                    "demo"),
                            Files.createDirectories(work.resolve("upshift-image")),
                            step -> log.accept("Upshift's image: " + step));
            base = ImageRef.parse("oci:" + work.resolve("releases") + ":upshift");
            new Releases(DockerCredentials.none(), false, w -> {})
                    .publish(image, base, ImageStore.Progress.NONE);
            FileTrees.deleteQuietly(work.resolve("upshift-image"));
            log.accept(
                    String.format(
                            "built Upshift's image in %.1f s; the releases are laid on it",
                            (System.nanoTime() - t0) / 1e9));
        }
        return new DemoReleases(work, clock, payloads, keys, store, base);
    }

    /**
     * Builds release {@code version} (its payload as {@link ReleasePayloads} writes it, upgradeable
     * from {@code previous}) into the OCI layout, signed or not; returns its pullspec by digest.
     */
    public String publish(String version, List<String> previous, boolean signed) throws Exception {
        Path dir = work.resolve("payload-" + version + "-" + System.nanoTime());
        payloads.write(dir, version, keys.publicArmored(), store);
        declared.put(version, payloads.declaredOperators(dir));
        ResolvedImage image =
                registry.publish(
                        dir,
                        version,
                        previous,
                        base,
                        ImageRef.parse("oci:" + work.resolve("releases") + ":" + version),
                        ImageStore.Progress.NONE);
        if (signed) {
            new DirectoryStore(store)
                    .add(
                            image.digest(),
                            keys.signer()
                                    .signRelease(
                                            image.ref().repositoryName(),
                                            image.digest(),
                                            "upshift demo",
                                            clock.instant()));
        }
        return image.pullspec();
    }

    /**
     * Release {@code version} as a multi-architecture release, as OpenShift publishes its {@code
     * multi} releases: a manifest list in the registry {@code registry} (an OCI registry reached
     * over plain HTTP, e.g. a test's {@code docker-registry}), repository {@code repository}, of
     * one image per architecture in {@code architectures} (the same payload in each, its metadata
     * saying {@code release.openshift.io/architecture: multi}), signed by the list's digest;
     * returns its pullspec by that digest. The payload only, on no base.
     */
    public String publishMultiArch(
            String version,
            List<String> previous,
            String registry,
            String repository,
            List<String> architectures)
            throws Exception {
        Path dir = work.resolve("payload-" + version + "-multi-" + System.nanoTime());
        payloads.write(dir, version, keys.publicArmored(), store);
        Path file = dir.resolve("release-manifests").resolve(ReleaseMetadata.FILE);
        // the payloads the demo writes leave their metadata to the build, which keeps what is there
        ReleaseMetadata written =
                Files.exists(file)
                        ? ReleaseMetadata.parse(Files.readAllBytes(file), ReleaseMetadata.FILE)
                        : new ReleaseMetadata(version, previous, List.of(), Map.of());
        Map<String, String> metadata = new TreeMap<>(written.metadata());
        metadata.put(ReleaseMetadata.ARCHITECTURE, "multi");
        Files.createDirectories(file.getParent());
        Files.write(
                file, new ReleaseMetadata(version, previous, written.next(), metadata).toJson());
        BuiltImage built =
                ImageBuilder.build(
                        dir,
                        version,
                        previous,
                        Files.createDirectories(dir.resolveSibling(dir.getFileName() + "-build")),
                        w -> {});
        byte[] layer = Files.readAllBytes(built.layer());
        RawImages raw = new RawImages(registry, null, null);
        Map<String, RawImages.Pushed> images = new TreeMap<>();
        for (String arch : architectures)
            images.put(arch, raw.image(repository, version + "-" + arch, arch, List.of(layer)));
        RawImages.Pushed list = raw.index(repository, version + "-multi", images);
        ImageRef ref = ImageRef.parse(registry + "/" + repository + "@" + list.digest());
        new DirectoryStore(store)
                .add(
                        list.digest(),
                        keys.signer()
                                .signRelease(
                                        ref.repositoryName(),
                                        list.digest(),
                                        "upshift demo",
                                        clock.instant()));
        return ref.repositoryName() + "@" + list.digest();
    }

    /**
     * The versions each ClusterOperator of release {@code version} declares, by operator name;
     * empty for a release not published here, or whose operators the simulation levels from their
     * Deployments.
     */
    public Map<String, Map<String, String>> declaredOperators(String version) {
        return declared.getOrDefault(version, Map.of());
    }
}
