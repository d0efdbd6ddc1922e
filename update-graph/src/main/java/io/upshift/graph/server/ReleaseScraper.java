package io.upshift.graph.server;

import io.upshift.graph.model.GraphException;
import io.upshift.graph.model.ReleaseEntry;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.FileTrees;
import io.upshift.releases.image.ImageDescriptor;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.RegistryAccess;
import io.upshift.releases.image.RegistryStore;
import io.upshift.releases.image.RegistryTags;
import io.upshift.releases.image.ResolvedImage;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.releases.payload.PayloadLoader;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * Releases of a registry repository for the graph service: each tag's image pinned by digest, with
 * the release-metadata read from its layers. Images already read are remembered by digest, so a
 * poll only pulls what is new; a tag whose image is not a release is skipped with a warning.
 */
public final class ReleaseScraper {

    private final ImageStore store;
    private final RegistryTags tags;
    private final Consumer<String> warnings;
    private final Map<String, ReleaseEntry> byDigest = new HashMap<>();

    public ReleaseScraper(
            DockerCredentials credentials, boolean insecure, Consumer<String> warnings) {
        this.store = new RegistryStore(RegistryAccess.of(credentials, insecure));
        this.tags = new RegistryTags(credentials, insecure);
        this.warnings = warnings;
    }

    /**
     * The tags of {@code repository} and their digests: what changes when a release is published or
     * moved.
     */
    public Map<String, String> digests(ImageRef repository) throws GraphException {
        Map<String, String> out = new TreeMap<>();
        try {
            for (String tag : tags.list(repository)) {
                ImageRef ref =
                        new ImageRef(
                                false,
                                repository.registry(),
                                repository.repository(),
                                tag,
                                null,
                                null);
                out.put(tag, store.resolve(ref).digest());
            }
        } catch (ReleaseException e) {
            throw new GraphException("invalid_release", e.toString(), e);
        }
        return out;
    }

    public synchronized List<ReleaseEntry> releases(ImageRef repository) throws GraphException {
        List<ReleaseEntry> out = new ArrayList<>();
        for (Map.Entry<String, String> t : digests(repository).entrySet()) {
            ReleaseEntry known = byDigest.get(t.getValue());
            if (known == null) {
                try {
                    known =
                            read(
                                    new ImageRef(
                                            false,
                                            repository.registry(),
                                            repository.repository(),
                                            null,
                                            t.getValue(),
                                            null));
                } catch (ReleaseException e) {
                    warnings.accept("skipping tag " + t.getKey() + ": " + e);
                    continue;
                }
                byDigest.put(t.getValue(), known);
            }
            if (!out.contains(known)) out.add(known); // two tags of one image are one release
        }
        return out;
    }

    private ReleaseEntry read(ImageRef ref) throws ReleaseException {
        ResolvedImage image = store.resolve(ref);
        Path work = null;
        try {
            work = Files.createTempDirectory("upshift-scrape-");
            ReleaseMetadata metadata = null;
            for (ImageDescriptor layer : image.layers()) {
                Path file = work.resolve("layer");
                store.fetch(image, layer, file, ImageStore.Progress.NONE);
                ReleaseMetadata found = metadataIn(file);
                if (found != null) metadata = found;
            }
            if (metadata == null) {
                throw new ReleaseException(
                        Reason.PAYLOAD_NOT_FOUND,
                        ref + " has no release-manifests/release-metadata");
            }
            String arch = metadata.architecture().isEmpty() ? "amd64" : metadata.architecture();
            return new ReleaseEntry(
                    metadata.version(),
                    metadata.previous(),
                    metadata.next(),
                    metadata.metadata(),
                    arch,
                    image.pullspec());
        } catch (IOException e) {
            throw new ReleaseException(Reason.IMAGE_INVALID, ref + ": " + e.getMessage(), e);
        } finally {
            if (work != null) FileTrees.deleteQuietly(work);
        }
    }

    private static ReleaseMetadata metadataIn(Path layer) throws IOException, ReleaseException {
        try (InputStream in = new BufferedInputStream(Files.newInputStream(layer));
                TarArchiveInputStream tar = new TarArchiveInputStream(new GZIPInputStream(in))) {
            TarArchiveEntry e;
            while ((e = tar.getNextEntry()) != null) {
                String name = e.getName().replaceFirst("^\\./", "").replaceFirst("^/", "");
                if (e.isFile() && name.equals("release-manifests/" + ReleaseMetadata.FILE)) {
                    if (e.getSize() > PayloadLoader.FILE_LIMIT)
                        throw new ReleaseException(
                                Reason.PAYLOAD_TOO_LARGE,
                                name
                                        + " is "
                                        + e.getSize()
                                        + " bytes, over the limit of "
                                        + PayloadLoader.FILE_LIMIT);
                    return ReleaseMetadata.parse(tar.readAllBytes(), name);
                }
            }
        }
        return null;
    }
}
