package io.upshift.release.image;

import com.google.cloud.tools.jib.api.Credential;
import com.google.cloud.tools.jib.api.DescriptorDigest;
import com.google.cloud.tools.jib.api.RegistryException;
import com.google.cloud.tools.jib.api.RegistryUnauthorizedException;
import com.google.cloud.tools.jib.blob.Blobs;
import com.google.cloud.tools.jib.event.EventHandlers;
import com.google.cloud.tools.jib.http.FailoverHttpClient;
import com.google.cloud.tools.jib.http.ResponseException;
import com.google.cloud.tools.jib.image.json.BuildableManifestTemplate;
import com.google.cloud.tools.jib.image.json.ManifestTemplate;
import com.google.cloud.tools.jib.image.json.OciManifestTemplate;
import com.google.cloud.tools.jib.json.JsonTemplateMapper;
import com.google.cloud.tools.jib.registry.ManifestAndDigest;
import com.google.cloud.tools.jib.registry.RegistryClient;
import io.upshift.core.release.Reason;
import io.upshift.core.release.ReleaseException;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestException;
import java.util.ArrayList;
import java.util.List;

/**
 * Release images in an OCI distribution registry, spoken to through jib-core's registry client. Registries on
 * loopback are spoken to over plain HTTP; others over HTTPS only, unless {@code insecure}.
 */
public final class RegistryStore implements ImageStore {

    private final DockerCredentials credentials;
    private final boolean insecure;

    public RegistryStore(DockerCredentials credentials, boolean insecure) {
        this.credentials = credentials;
        this.insecure = insecure;
    }

    @Override
    public String push(BuiltImage image, ImageRef ref, Progress progress) throws ReleaseException {
        RegistryClient client = client(ref, true);
        try {
            for (ImageDescriptor blob : List.of(image.configDescriptor(), image.layerDescriptor())) {
                DescriptorDigest digest = DescriptorDigest.fromDigest(blob.digest());
                if (client.checkBlob(digest).isPresent()) continue;
                boolean layer = blob == image.layerDescriptor();
                client.pushBlob(digest, layer ? Blobs.from(image.layer()) : Blobs.from(new java.io.ByteArrayInputStream(image.config())),
                        null, sent -> { if (layer) progress.bytes(sent, blob.size()); });
            }
            OciManifestTemplate manifest = JsonTemplateMapper.readJson(image.manifest(), OciManifestTemplate.class);
            String tag = ref.tag() != null ? ref.tag() : image.metadata().version();
            String digest = client.pushManifest(manifest, tag).toString();
            if (!digest.equals(image.digest())) {
                throw new ReleaseException(Reason.REGISTRY_FAILED, ref + ": the registry stored the manifest as " + digest + ", expected " + image.digest());
            }
            return digest;
        } catch (IOException | RegistryException | DigestException e) {
            throw failure(ref, "push to", e);
        }
    }

    @Override
    public ResolvedImage resolve(ImageRef ref) throws ReleaseException {
        RegistryClient client = client(ref, false);
        try {
            ManifestAndDigest<ManifestTemplate> pulled = client.pullManifest(ref.reference());
            String digest = pulled.getDigest().toString();
            if (ref.digest() != null && !ref.digest().equals(digest)) {
                throw new ReleaseException(Reason.BLOB_DIGEST_MISMATCH, ref + ": the registry answered with manifest " + digest);
            }
            if (!(pulled.getManifest() instanceof BuildableManifestTemplate m)) {
                throw new ReleaseException(Reason.IMAGE_INVALID, ref + " is a multi-architecture index or an old manifest schema; name one image by digest");
            }
            List<ImageDescriptor> layers = new ArrayList<>();
            for (BuildableManifestTemplate.ContentDescriptorTemplate l : m.getLayers()) {
                layers.add(new ImageDescriptor(ImageBuilder.LAYER_MEDIA_TYPE, l.getDigest().toString(), l.getSize()));
            }
            BuildableManifestTemplate.ContentDescriptorTemplate c = m.getContainerConfiguration();
            return new ResolvedImage(ref.withDigest(digest), digest,
                    new ImageDescriptor(ImageBuilder.CONFIG_MEDIA_TYPE, c.getDigest().toString(), c.getSize()), layers);
        } catch (IOException | RegistryException e) {
            throw failure(ref, "pull from", e);
        }
    }

    @Override
    public void fetch(ResolvedImage image, ImageDescriptor blob, Path target, Progress progress) throws ReleaseException {
        RegistryClient client = client(image.ref(), false);
        Digests.Counting counted = null;
        try (OutputStream out = new BufferedOutputStream(Files.newOutputStream(target), 1 << 16)) {
            counted = new Digests.Counting(out);
            Digests.Counting sink = counted;
            client.pullBlob(DescriptorDigest.fromDigest(blob.digest()), size -> { }, n -> progress.bytes(sink.count, blob.size()))
                    .writeTo(counted);
        } catch (IOException | DigestException e) {
            FileTrees.deleteQuietly(target);
            if (counted != null && counted.count < blob.size() && !(e instanceof ResponseException)) {
                throw new ReleaseException(Reason.BLOB_TRUNCATED, image.ref() + ": blob " + blob.digest() + " ended after "
                        + counted.count + " of " + blob.size() + " bytes (" + e.getMessage() + ")", e);
            }
            throw failure(image.ref(), "pull from", e);
        }
        try {
            BlobCheck.verify(image.ref(), blob, counted.count, Digests.of(counted.digest));
        } catch (ReleaseException e) {
            FileTrees.deleteQuietly(target);
            throw e;
        }
    }

    private RegistryClient client(ImageRef ref, boolean push) throws ReleaseException {
        boolean plain = insecure || ref.isLoopback();
        FailoverHttpClient http = new FailoverHttpClient(plain, plain, log -> { });
        RegistryClient.Factory factory = RegistryClient.factory(EventHandlers.NONE, ref.registry(), ref.repository(), http);
        var login = credentials.forRegistry(ref.registry());
        login.ifPresent(l -> factory.setCredential(Credential.from(l.username(), l.password())));
        factory.setUserAgent("upshift");
        RegistryClient client = factory.newRegistryClient();
        try {
            boolean bearer = push ? client.doPushBearerAuth() : client.doPullBearerAuth();
            if (!bearer && login.isPresent()) client.configureBasicAuth();
        } catch (IOException | RegistryException e) {
            throw failure(ref, "authenticate with", e);
        }
        return client;
    }

    /** One reason per way a registry can fail, and a message naming the registry and image. */
    static ReleaseException failure(ImageRef ref, String action, Exception e) {
        if (e instanceof ReleaseException r) return r;
        String registry = ref.registry();
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof RegistryUnauthorizedException) {
                return new ReleaseException(Reason.REGISTRY_UNAUTHORIZED, "registry " + registry + " refused to let us " + action.split(" ")[0]
                        + " " + ref + " (unauthorized): check the credentials in the docker config.json or pull secret", e);
            }
            if (t instanceof ResponseException r) {
                int status = r.getStatusCode();
                if (status == 401 || status == 403) {
                    return new ReleaseException(Reason.REGISTRY_UNAUTHORIZED, "registry " + registry + " answered HTTP " + status
                            + " to " + ref + ": check the credentials in the docker config.json or pull secret", e);
                }
                if (status == 404) return new ReleaseException(Reason.IMAGE_NOT_FOUND, ref + " was not found in registry " + registry + " (HTTP 404)", e);
                return new ReleaseException(Reason.REGISTRY_FAILED, "registry " + registry + " answered HTTP " + status + " when asked to "
                        + action + " " + ref, e);
            }
            String m = String.valueOf(t.getMessage());
            if (m.contains("MANIFEST_UNKNOWN") || m.contains("manifest unknown") || m.contains("NAME_UNKNOWN")) {
                return new ReleaseException(Reason.IMAGE_NOT_FOUND, ref + " was not found in registry " + registry, e);
            }
            if (t instanceof java.net.ConnectException) {
                return new ReleaseException(Reason.REGISTRY_FAILED, "cannot connect to registry " + registry + ": " + t.getMessage(), e);
            }
        }
        return new ReleaseException(Reason.REGISTRY_FAILED, "cannot " + action + " " + registry + " (" + ref + "): " + e.getMessage(), e);
    }
}
