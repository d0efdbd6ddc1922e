package io.upshift.releases.image;

import com.google.cloud.tools.jib.api.Credential;
import com.google.cloud.tools.jib.api.DescriptorDigest;
import com.google.cloud.tools.jib.api.RegistryException;
import com.google.cloud.tools.jib.api.RegistryUnauthorizedException;
import com.google.cloud.tools.jib.blob.Blobs;
import com.google.cloud.tools.jib.event.EventHandlers;
import com.google.cloud.tools.jib.http.FailoverHttpClient;
import com.google.cloud.tools.jib.http.ResponseException;
import com.google.cloud.tools.jib.image.json.OciManifestTemplate;
import com.google.cloud.tools.jib.json.JsonTemplateMapper;
import com.google.cloud.tools.jib.registry.RegistryClient;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.runtime.fetch.BoundExceeded;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.ConnectException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.DigestException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Release images in an OCI distribution registry: published through jib-core's registry client,
 * read through {@link RegistryPull} with the access given (logins, mirrors, proxy, architecture).
 * Registries on loopback are spoken to over plain HTTP; others over HTTPS only, unless {@code
 * insecure}.
 */
public final class RegistryStore implements ImageStore {

    private final RegistryAccess access;
    private final RegistryLimits limits;
    private final HttpClient http;

    public RegistryStore(RegistryAccess access) {
        this(access, RegistryLimits.DEFAULT);
    }

    RegistryStore(RegistryAccess access, RegistryLimits limits) {
        this.access = access;
        this.limits = limits;
        this.http =
                HttpClient.newBuilder()
                        .proxy(access.proxy())
                        .connectTimeout(Duration.ofSeconds(10))
                        .followRedirects(HttpClient.Redirect.NORMAL)
                        .build();
    }

    @Override
    public String push(BuiltImage image, ImageRef ref, Progress progress) throws ReleaseException {
        try (JibConnections connections = new JibConnections(ref.registry(), limits.maxAnswer())) {
            RegistryClient client = client(ref, connections);
            DescriptorDigest configDigest =
                    DescriptorDigest.fromDigest(image.configDescriptor().digest());
            if (connections
                    .within(
                            limits.exchange(),
                            "checking blob " + configDigest,
                            () -> client.checkBlob(configDigest))
                    .isEmpty()) {
                connections.within(
                        limits.blobDeadline(image.config().length),
                        "pushing blob " + configDigest,
                        () ->
                                client.pushBlob(
                                        configDigest,
                                        Blobs.from(new ByteArrayInputStream(image.config())),
                                        null,
                                        sent -> {}));
            }
            long before = 0;
            for (BuiltImage.LayerFile layer : image.layers()) {
                DescriptorDigest digest = DescriptorDigest.fromDigest(layer.descriptor().digest());
                long offset = before;
                if (connections
                        .within(
                                limits.exchange(),
                                "checking blob " + digest,
                                () -> client.checkBlob(digest))
                        .isEmpty()) {
                    connections.within(
                            limits.blobDeadline(layer.descriptor().size()),
                            "pushing blob " + digest,
                            () ->
                                    client.pushBlob(
                                            digest,
                                            Blobs.from(layer.file()),
                                            null,
                                            sent -> progress.bytes(offset + sent, image.size())));
                }
                before += layer.descriptor().size();
            }
            OciManifestTemplate manifest =
                    JsonTemplateMapper.readJson(image.manifest(), OciManifestTemplate.class);
            String tag = ref.tag() != null ? ref.tag() : image.defaultTag();
            String digest =
                    connections
                            .within(
                                    limits.exchange(),
                                    "pushing the manifest of " + ref,
                                    () -> client.pushManifest(manifest, tag))
                            .toString();
            if (!digest.equals(image.digest())) {
                throw new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        ref
                                + ": the registry stored the manifest as "
                                + digest
                                + ", expected "
                                + image.digest());
            }
            return digest;
        } catch (IOException | RegistryException | DigestException e) {
            throw failure(ref, "push to", e);
        }
    }

    /**
     * Finds {@code ref} where the mirrors say, in order, then at its own registry unless forbidden;
     * a mirror that fails (404, refused, unreachable) passes on to the next. The image keeps {@code
     * ref}'s name; its blobs are read where it was found. A manifest list yields the image of the
     * access's architecture, pinned by the list's digest.
     */
    @Override
    public ResolvedImage resolve(ImageRef ref) throws ReleaseException {
        List<ImageRef> candidates = access.mirrors().candidates(ref);
        if (candidates.isEmpty())
            throw new ReleaseException(
                    Reason.IMAGE_NOT_FOUND,
                    ref + ": its mirror rule names no mirror and forbids the source");
        List<String> tried = new ArrayList<>();
        ReleaseException last = null;
        for (ImageRef at : candidates) {
            try {
                return resolveAt(ref, at);
            } catch (ReleaseException e) {
                last = e;
                tried.add(at.registry() + "/" + at.repository() + " (" + e.reason().code() + ")");
            }
        }
        if (candidates.size() == 1) throw last;
        throw new ReleaseException(
                last.reason(), last.getMessage() + "; tried " + String.join(", ", tried), last);
    }

    private ResolvedImage resolveAt(ImageRef ref, ImageRef at) throws ReleaseException {
        RegistryPull pull =
                new RegistryPull(at, access.credentials(), http, access.insecure(), limits);
        RegistryPull.Manifest top = pull.manifest(at.reference());
        if (ref.digest() != null && !ref.digest().equals(top.digest())) {
            throw new ReleaseException(
                    Reason.BLOB_DIGEST_MISMATCH,
                    at + ": the registry answered with manifest " + top.digest());
        }
        RegistryPull.Manifest image = top;
        boolean listed = ManifestJson.isList(top.body());
        if (listed) {
            String entry = ManifestJson.platformEntry(ref, top.body(), access.architecture());
            image = pull.manifest(entry);
            if (!image.digest().equals(entry))
                throw new ReleaseException(
                        Reason.BLOB_DIGEST_MISMATCH,
                        at
                                + ": the registry answered "
                                + entry
                                + " with manifest "
                                + image.digest());
        }
        ResolvedImage resolved =
                ManifestJson.parse(ref, top.digest(), image.body())
                        .locatedAt(at.withDigest(top.digest()));
        return listed ? resolved.asListEntry() : resolved;
    }

    @Override
    public void fetch(ResolvedImage image, ImageDescriptor blob, Path target, Progress progress)
            throws ReleaseException {
        ImageRef at = image.location();
        Digests.Counting counted = null;
        try (InputStream in =
                        new RegistryPull(at, access.credentials(), http, access.insecure(), limits)
                                .blob(blob.digest(), blob.size());
                OutputStream out =
                        new BufferedOutputStream(Files.newOutputStream(target), 1 << 16)) {
            counted = new Digests.Counting(out);
            byte[] buffer = new byte[1 << 16];
            for (int n; (n = in.read(buffer)) >= 0; ) {
                counted.write(buffer, 0, n);
                progress.bytes(counted.count, blob.size());
            }
        } catch (BoundExceeded e) {
            FileTrees.deleteQuietly(target);
            throw new ReleaseException(
                    e.kind() == BoundExceeded.Kind.TOO_LARGE
                            ? Reason.BLOB_DIGEST_MISMATCH
                            : Reason.REGISTRY_FAILED,
                    at + ": blob " + blob.digest() + ": " + e.getMessage(),
                    e);
        } catch (IOException e) {
            FileTrees.deleteQuietly(target);
            long got = counted == null ? 0 : counted.count;
            if (got < blob.size()) {
                throw new ReleaseException(
                        Reason.BLOB_TRUNCATED,
                        at
                                + ": blob "
                                + blob.digest()
                                + " ended after "
                                + got
                                + " of "
                                + blob.size()
                                + " bytes ("
                                + e.getMessage()
                                + ")",
                        e);
            }
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    at + ": reading blob " + blob.digest() + " failed: " + e.getMessage(),
                    e);
        } catch (ReleaseException e) {
            FileTrees.deleteQuietly(target);
            throw e;
        }
        try {
            BlobCheck.verify(at, blob, counted.count, Digests.of(counted.digest));
        } catch (ReleaseException e) {
            FileTrees.deleteQuietly(target);
            throw e;
        }
    }

    /** jib's client for pushing {@code ref}, over {@code connections}, authenticated. */
    private RegistryClient client(ImageRef ref, JibConnections connections)
            throws ReleaseException {
        boolean plain = access.insecure() || ref.isLoopback();
        FailoverHttpClient http = connections.client(plain);
        RegistryClient.Factory factory =
                RegistryClient.factory(EventHandlers.NONE, ref.registry(), ref.repository(), http);
        var login = access.credentials().forRegistry(ref.registry());
        login.ifPresent(l -> factory.setCredential(Credential.from(l.username(), l.password())));
        factory.setUserAgent("upshift");
        RegistryClient client = factory.newRegistryClient();
        try {
            boolean bearer =
                    connections.within(
                            limits.exchange(),
                            "authenticating with " + ref.registry(),
                            client::doPushBearerAuth);
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
            if (t instanceof BoundExceeded b) {
                return new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "cannot " + action + " " + registry + " (" + ref + "): " + b.getMessage(),
                        e);
            }
            if (t instanceof RegistryUnauthorizedException) {
                return new ReleaseException(
                        Reason.REGISTRY_UNAUTHORIZED,
                        "registry "
                                + registry
                                + " refused to let us "
                                + action.split(" ")[0]
                                + " "
                                + ref
                                + " (unauthorized): check the credentials in the docker config.json"
                                + " or pull secret",
                        e);
            }
            if (t instanceof ResponseException r) {
                int status = r.getStatusCode();
                if (status == 401 || status == 403) {
                    return new ReleaseException(
                            Reason.REGISTRY_UNAUTHORIZED,
                            "registry "
                                    + registry
                                    + " answered HTTP "
                                    + status
                                    + " to "
                                    + ref
                                    + ": check the credentials in the docker config.json or pull"
                                    + " secret",
                            e);
                }
                if (status == 404)
                    return new ReleaseException(
                            Reason.IMAGE_NOT_FOUND,
                            ref + " was not found in registry " + registry + " (HTTP 404)",
                            e);
                return new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "registry "
                                + registry
                                + " answered HTTP "
                                + status
                                + " when asked to "
                                + action
                                + " "
                                + ref,
                        e);
            }
            String m = String.valueOf(t.getMessage());
            if (m.contains("MANIFEST_UNKNOWN")
                    || m.contains("manifest unknown")
                    || m.contains("NAME_UNKNOWN")) {
                return new ReleaseException(
                        Reason.IMAGE_NOT_FOUND, ref + " was not found in registry " + registry, e);
            }
            if (t instanceof ConnectException) {
                return new ReleaseException(
                        Reason.REGISTRY_FAILED,
                        "cannot connect to registry " + registry + ": " + t.getMessage(),
                        e);
            }
        }
        return new ReleaseException(
                Reason.REGISTRY_FAILED,
                "cannot " + action + " " + registry + " (" + ref + "): " + e.getMessage(),
                e);
    }
}
