package io.upshift.release.image;

import io.upshift.core.inclusion.InclusionRules;
import io.upshift.core.payload.Payload;
import io.upshift.core.payload.PayloadLoader;
import io.upshift.core.release.Reason;
import io.upshift.core.release.ReleaseException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/** Publishing, finding and unpacking release images, in registries or OCI layouts alike. */
public final class Releases {

    private final RegistryStore registry;
    private final OciLayoutStore layout = new OciLayoutStore();
    private final Consumer<String> warnings;

    public Releases(DockerCredentials credentials, boolean insecure, Consumer<String> warnings) {
        this.registry = new RegistryStore(credentials, insecure);
        this.warnings = warnings;
    }

    private ImageStore store(ImageRef ref) {
        return ref.layout() ? layout : registry;
    }

    /** Builds the image of payload {@code from} and publishes it as {@code to}; returns it pinned by digest. */
    public ResolvedImage publish(Path from, String version, List<String> previous, ImageRef to, ImageStore.Progress progress)
            throws ReleaseException {
        if (to.digest() != null) throw new ReleaseException(Reason.REFERENCE_INVALID, to + ": publish to a tag, not a digest");
        Path work = tempDir();
        try {
            BuiltImage image = ImageBuilder.build(from, version, previous, work, warnings);
            String digest = store(to).push(image, to, progress);
            return new ResolvedImage(to.withDigest(digest), digest, image.configDescriptor(), List.of(image.layerDescriptor()));
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    public ResolvedImage resolve(ImageRef ref) throws ReleaseException {
        return store(ref).resolve(ref);
    }

    /** Unpacks the payload of {@code ref} into {@code target} (absent or empty): all of it, or nothing. */
    public ResolvedImage extract(ImageRef ref, Path target, ImageStore.Progress progress) throws ReleaseException {
        ResolvedImage image = resolve(ref);
        Path work = tempDir();
        try {
            List<Path> layers = new ArrayList<>();
            long total = image.size(), done = 0;
            for (ImageDescriptor blob : image.layers()) {
                Path file = work.resolve("layer-" + layers.size());
                long before = done;
                store(ref).fetch(image, blob, file, (n, t) -> progress.bytes(before + n, total));
                done += blob.size();
                layers.add(file);
            }
            SafeExtractor.extract(layers, target);
            return image;
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    /** The image's identity and its payload as a default cluster would load it. */
    public ReleaseInfo info(ImageRef ref) throws ReleaseException {
        Path work = tempDir();
        try {
            Path payloadDir = work.resolve("payload");
            ResolvedImage image = extract(ref, payloadDir, ImageStore.Progress.NONE);
            Payload payload = PayloadLoader.load(payloadDir, image.pullspec(), InclusionRules.defaults(), warnings);
            return new ReleaseInfo(image, payload);
        } finally {
            FileTrees.deleteQuietly(work);
        }
    }

    private static Path tempDir() throws ReleaseException {
        try {
            return Files.createTempDirectory("upshift-release-");
        } catch (IOException e) {
            throw new ReleaseException(Reason.IMAGE_INVALID, "cannot create a temporary directory: " + e.getMessage(), e);
        }
    }
}
