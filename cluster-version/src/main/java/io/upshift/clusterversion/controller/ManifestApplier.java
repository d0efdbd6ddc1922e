package io.upshift.clusterversion.controller;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.api.json.Mappers;
import io.upshift.base.proxy.ClusterProxy;
import io.upshift.clusterversion.merge.ProxyInjection;
import io.upshift.clusterversion.merge.ResourceMerge;
import io.upshift.clusterversion.merge.Semantic;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.taskgraph.Mode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Applies one manifest as the upstream operator does: creates what is missing; otherwise merges the
 * manifest into the live object read from the cache, kind by kind ({@link ResourceMerge}; immutable
 * fields keep their live value and are reported once), and writes only when that changed something,
 * as an update conditional on the resourceVersion the merge started from (a 409 means someone wrote
 * meanwhile: the caller reads again and recomputes). Create-only objects are never updated; objects
 * marked for deletion are deleted when updating, once, and tracked until they are gone ({@link
 * Deletions}). Status is never written here.
 *
 * <p>Where the API server stores a manifest differently from how it is written (it drops a field it
 * does not know, as a v1.24 server drops {@code x-kubernetes-validations}), merging again after the
 * write would write again, forever. The applier notices it on the write's answer and marks the
 * object {@value #APPLIED} with the manifest's hash and the generation the server gave it; while
 * both still hold, the object is as the server keeps this manifest and only its metadata is
 * compared. A change by anyone else moves the generation and lifts the mark.
 */
final class ManifestApplier {
    static final String APPLIED = "upshift.io/applied-manifest";
    private static final Logger LOG = LoggerFactory.getLogger(ManifestApplier.class);

    /** What applying did, for logs and for the no-write-without-difference tests. */
    enum Outcome {
        CREATED,
        UPDATED,
        UNCHANGED,
        DELETED,
        ABSENT
    }

    /**
     * @param written the object as the API returned it from this apply's write (null when nothing
     *     was written): what readiness must see at least, since an informer's cache can still hold
     *     the object from before
     */
    record Applied(Outcome outcome, GenericKubernetesResource written) {
        static Applied without(Outcome outcome) {
            return new Applied(outcome, null);
        }
    }

    private final KubernetesClient client;
    private final ObjectReader cache;
    private final Supplier<ClusterProxy> proxy;
    private final Deletions deletions;

    /** Immutable fields already reported, per object and paths: said once, not at every pass. */
    private final Set<String> heldReported = ConcurrentHashMap.newKeySet();

    /**
     * Per object (uid), the mark of its last normalised write and the resourceVersion it left:
     * until it changes, the object is level.
     */
    private final Map<String, String> normalisedAt = new ConcurrentHashMap<>();

    final AtomicLong writes = new AtomicLong();

    /**
     * @param proxy the cluster's egress proxy, read only for manifests that ask for it
     */
    ManifestApplier(KubernetesClient client, ObjectReader cache, Supplier<ClusterProxy> proxy) {
        this(client, cache, proxy, new Deletions(() -> {}));
    }

    /**
     * @param deletions where the deletions it requests are tracked until their objects are gone
     */
    ManifestApplier(
            KubernetesClient client,
            ObjectReader cache,
            Supplier<ClusterProxy> proxy,
            Deletions deletions) {
        this.client = client;
        this.cache = cache;
        this.proxy = proxy;
        this.deletions = deletions;
    }

    /**
     * The manifest as this cluster gets it: without status, and with what upstream's resource
     * builder fills in from the cluster (the proxy, where asked for).
     */
    private ObjectNode required(Manifest m) {
        ObjectNode required = ResourceMerge.required(m.object());
        return ProxyInjection.requested(required)
                ? ProxyInjection.inject(required, proxy.get())
                : required;
    }

    /**
     * Upstream's pre-creation of a ClusterOperator, just before the graph node that holds it:
     * created when missing, with the related objects the manifest lists (so that must-gather finds
     * them before the operator reports), never updated here. Returns whether it created it.
     */
    boolean precreate(Manifest m) {
        if (cache.get(m) != null) return false;
        GenericKubernetesResource created;
        try {
            created =
                    LiveObjects.of(client, m, generic(ResourceMerge.required(m.object()))).create();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 409) return false; // created meanwhile
            throw e;
        }
        writes.incrementAndGet();
        JsonNode related = m.object().path("status").path("relatedObjects");
        if (related.isArray() && !related.isEmpty()) {
            ObjectNode withStatus = Mappers.JSON.valueToTree(created);
            withStatus.putObject("status").set("relatedObjects", related.deepCopy());
            try {
                LiveObjects.of(client, m, generic(withStatus))
                        .updateStatus(); // conditional on the create's resourceVersion
                writes.incrementAndGet();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e; // the operator reported first: its status wins
            }
        }
        return true;
    }

    Applied apply(Manifest m, Mode mode) {
        GenericKubernetesResource live = cache.get(m);
        if (m.markedForDeletion()) {
            if (live == null) {
                deletions.gone(LiveCache.key(m));
                return Applied.without(Outcome.ABSENT);
            }
            // as upstream: requested once, when updating; then waited for (the object may have
            // finalizers)
            if (mode != Mode.UPDATING || deletions.isRequested(m))
                return Applied.without(Outcome.UNCHANGED);
            LiveObjects.of(client, m).delete();
            writes.incrementAndGet();
            deletions.requested(m);
            LOG.info("{}: deletion requested, as the payload marks it", Readiness.describe(m));
            return Applied.without(Outcome.DELETED);
        }
        ObjectNode required = required(m);
        if (live == null) {
            try {
                GenericKubernetesResource created =
                        LiveObjects.of(client, m, generic(required)).create();
                writes.incrementAndGet();
                noticeNormalisation(m, required, created);
                return new Applied(Outcome.CREATED, created);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409) throw e;
                live =
                        LiveObjects.of(client, m)
                                .get(); // created meanwhile, and not in the cache yet
                if (live == null) throw e;
            }
        }
        if (m.createOnly()) return Applied.without(Outcome.UNCHANGED);
        JsonNode current = Mappers.JSON.valueToTree(live);
        ResourceMerge.Merged merged = merge(current, required);
        if (merged.held().contains("roleRef") && m.group().equals("rbac.authorization.k8s.io"))
            return recreate(m, live, required);
        reportHeld(m, current, merged);
        if (!merged.changed()) return Applied.without(Outcome.UNCHANGED);
        LOG.info(
                "{}: updating, {} differs from the payload",
                Readiness.describe(m),
                merged.difference());
        GenericKubernetesResource updated =
                LiveObjects.of(client, m, generic(merged.object())).update();
        writes.incrementAndGet();
        noticeNormalisation(m, required, updated);
        return new Applied(Outcome.UPDATED, updated);
    }

    /**
     * A binding whose role changes is deleted and created again (the API server never changes a
     * roleRef): the delete is conditional on the resourceVersion read, so a binding someone changed
     * meanwhile is read again first. Between the two, the binding's subjects hold neither role,
     * briefly; better than keeping the old role for good.
     */
    private Applied recreate(Manifest m, GenericKubernetesResource live, ObjectNode required) {
        LOG.info(
                "{}: its roleRef changes, which the API server does not allow in place: deleting"
                        + " and creating it again",
                Readiness.describe(m));
        LiveObjects.of(client, m)
                .lockResourceVersion(live.getMetadata().getResourceVersion())
                .delete();
        writes.incrementAndGet();
        GenericKubernetesResource created = LiveObjects.of(client, m, generic(required)).create();
        writes.incrementAndGet();
        return new Applied(Outcome.CREATED, created);
    }

    private void reportHeld(Manifest m, JsonNode current, ResourceMerge.Merged merged) {
        if (merged.held().isEmpty()) return;
        if (heldReported.add(current.path("metadata").path("uid").asText() + " " + merged.held())) {
            LOG.warn(
                    "{}: the payload asks to change {}, which the API server does not allow once"
                            + " set; the live value stays",
                    Readiness.describe(m),
                    String.join(", ", merged.held()));
        }
    }

    /**
     * The merge, or only its metadata where the object is known to be as the server keeps this
     * manifest.
     */
    private ResourceMerge.Merged merge(JsonNode current, ObjectNode required) {
        ResourceMerge.Merged merged = ResourceMerge.merge(current, required);
        if (!merged.changed() || !storedAsServerKeepsIt(current, required)) return merged;
        ObjectNode metadataOnly = current.deepCopy();
        metadataOnly.set("metadata", merged.object().get("metadata"));
        return new ResourceMerge.Merged(
                metadataOnly,
                Semantic.difference(
                        current.get("metadata"), metadataOnly.get("metadata"), ".metadata"));
    }

    private boolean storedAsServerKeepsIt(JsonNode current, ObjectNode required) {
        JsonNode meta = current.path("metadata");
        String hash = hash(required);
        if ((hash + " " + meta.path("resourceVersion").asText())
                .equals(normalisedAt.get(meta.path("uid").asText()))) return true;
        return meta.has("generation")
                && (hash + "@" + meta.path("generation").asLong())
                        .equals(meta.path("annotations").path(APPLIED).asText());
    }

    /**
     * After a write: when merging the manifest into what the server answered would write again, the
     * server stores this manifest differently from how it is written; mark the object so that it is
     * not written again.
     */
    private void noticeNormalisation(
            Manifest m, ObjectNode required, GenericKubernetesResource written) {
        ObjectNode answer = Mappers.JSON.valueToTree(written);
        ResourceMerge.Merged again = ResourceMerge.merge(answer, required);
        if (!again.changed()) return;
        ObjectNode marked = answer.deepCopy();
        marked.withObjectProperty("metadata")
                .withObjectProperty("annotations")
                .put(
                        APPLIED,
                        hash(required) + "@" + answer.path("metadata").path("generation").asLong());
        GenericKubernetesResource stored = LiveObjects.of(client, m, generic(marked)).update();
        writes.incrementAndGet();
        normalisedAt.put(
                stored.getMetadata().getUid(),
                hash(required) + " " + stored.getMetadata().getResourceVersion());
        LOG.info(
                "{}: the API server keeps {} otherwise than the payload writes it; compared as the"
                        + " server keeps it from now on",
                Readiness.describe(m),
                again.difference());
    }

    /**
     * True when applying {@code m} would write nothing: the live object already is what the
     * manifest says.
     */
    boolean applied(Manifest m) {
        GenericKubernetesResource live = cache.get(m);
        if (m.markedForDeletion()) return live == null;
        if (live == null) return false;
        return m.createOnly() || !merge(Mappers.JSON.valueToTree(live), required(m)).changed();
    }

    private static GenericKubernetesResource generic(JsonNode object) {
        return Mappers.JSON.convertValue(object, GenericKubernetesResource.class);
    }

    private static String hash(JsonNode required) {
        try {
            byte[] digest =
                    MessageDigest.getInstance("SHA-256")
                            .digest(required.toString().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
