package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.Update;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the administrator asked for, as upstream resolves it (pkg/cvo/cvo.go sync, updatepayload.go
 * findUpdateFromConfig): {@code spec.desiredUpdate} by image, or by version looked up among the
 * available updates only (a conditional update is there when Recommended=True; any other one must
 * be named by image), or, when a cluster of one architecture asks for Multi, its own version looked
 * up there (where the graph offers the multi-architecture release of it alone); otherwise, or when
 * nothing is asked, the current release (or the release the controller runs when none was applied
 * yet). A request {@link ClusterVersionValidation} finds invalid is reported (Invalid=True,
 * InvalidClusterVersion) and the current release stays the target.
 */
public final class DesiredUpdates {

    public static final String INVALID = "InvalidClusterVersion";

    /** The architecture of a multi-architecture release, as ClusterVersion names it. */
    public static final String MULTI = "Multi";

    /** A resolved target. {@code version} may be empty for an image given alone. */
    public record Target(String version, String image, boolean force, List<String> acceptRisks) {}

    /**
     * The target (null when there is none: no release applied, none run) and, when {@code
     * spec.desiredUpdate} is invalid, why (the Invalid condition's reason and message).
     */
    public record Resolution(Target target, String invalidReason, String invalidMessage) {
        public boolean valid() {
            return invalidReason == null;
        }
    }

    private DesiredUpdates() {}

    public static Resolution resolve(ClusterVersion cv, String ownRelease) {
        Update d = cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate();
        List<String> accept = d == null ? List.of() : acceptRisks(d);
        Target current = current(cv, ownRelease, accept);
        Optional<String> invalid = ClusterVersionValidation.desiredUpdate(cv);
        if (invalid.isPresent())
            return new Resolution(
                    current, INVALID, "The cluster version is invalid: " + invalid.get());
        if (d != null && !empty(d.getImage()))
            return ok(
                    new Target(
                            nz(d.getVersion()),
                            bare(d.getImage()),
                            Boolean.TRUE.equals(d.getForce()),
                            accept));
        // a cluster of one architecture asking for Multi moves to its own version's
        // multi-architecture release, the only update the graph offers it then
        String version =
                d != null && migratingToMulti(d, cv)
                        ? nz(cv.getStatus().getDesired().getVersion())
                        : d == null ? "" : nz(d.getVersion());
        if (!version.isEmpty()) {
            Optional<String> image = available(cv, version);
            if (image.isPresent())
                return ok(
                        new Target(
                                version, image.get(), Boolean.TRUE.equals(d.getForce()), accept));
        }
        if (current == null)
            return new Resolution(
                    null,
                    "NoDesiredRelease",
                    "No release is running and spec.desiredUpdate names none");
        return ok(current);
    }

    /**
     * As upstream's {@code findUpdateFromConfig}: Multi asked for, by no image, while the release
     * status names is not a multi-architecture one.
     */
    static boolean migratingToMulti(Update d, ClusterVersion cv) {
        Release desired = cv.getStatus() == null ? null : cv.getStatus().getDesired();
        return MULTI.equals(d.getArchitecture())
                && empty(d.getImage())
                && desired != null
                && !MULTI.equals(desired.getArchitecture());
    }

    /**
     * The release the cluster runs (status names it), else the controller's own; null when neither:
     * what the controller keeps working on while a request waits ({@link UpdateWindow}).
     */
    public static Target running(ClusterVersion cv, String ownRelease, List<String> accept) {
        return current(cv, ownRelease, accept);
    }

    /** The release status names, else the controller's own; null when neither. */
    private static Target current(ClusterVersion cv, String ownRelease, List<String> accept) {
        Release desired = cv.getStatus() == null ? null : cv.getStatus().getDesired();
        if (desired != null && !empty(desired.getImage()))
            return new Target(nz(desired.getVersion()), desired.getImage(), false, accept);
        if (!empty(ownRelease)) return new Target("", bare(ownRelease), false, accept);
        return null;
    }

    /**
     * The version the cluster already knows {@code image} by, for naming what works on it before
     * its payload says (the payload-retrieval Job): the target's own version, else that of the
     * release status names with this image or its digest (status.desired, an available or
     * conditional update, a history entry: a rollback asked by image). Empty when none does.
     */
    public static String knownVersion(Target target, ClusterVersion cv) {
        if (!target.version().isEmpty()) return target.version();
        var s = cv == null ? null : cv.getStatus();
        if (s == null) return "";
        List<Release> known = new ArrayList<>();
        if (s.getDesired() != null) known.add(s.getDesired());
        known.addAll(nonNull(s.getAvailableUpdates()));
        for (var c : nonNull(s.getConditionalUpdates()))
            if (c.getRelease() != null) known.add(c.getRelease());
        for (var h : nonNull(s.getHistory())) {
            Release r = new Release();
            r.setVersion(h.getVersion());
            r.setImage(h.getImage());
            known.add(r);
        }
        for (Release r : known) {
            if (!empty(r.getVersion()) && sameImage(target.image(), r.getImage()))
                return r.getVersion();
        }
        return "";
    }

    /** The same pullspec, or the same digest. */
    private static boolean sameImage(String a, String b) {
        if (empty(b)) return false;
        String x = bare(a), y = bare(b);
        if (x.equals(y)) return true;
        int i = x.indexOf("@sha256:"), j = y.indexOf("@sha256:");
        return i >= 0 && j >= 0 && x.substring(i).equals(y.substring(j));
    }

    /**
     * The pullspec a kubelet can pull: {@code docker://HOST/REPO@…} without its scheme, which is
     * how the image is written to the cluster (status, history, the controller's own Deployment).
     */
    public static String bare(String image) {
        return image.startsWith("docker://") ? image.substring("docker://".length()) : image;
    }

    /** The image of the first available update of {@code version}. */
    private static Optional<String> available(ClusterVersion cv, String version) {
        if (cv.getStatus() == null) return Optional.empty();
        for (Release r : nonNull(cv.getStatus().getAvailableUpdates())) {
            if (version.equals(r.getVersion()) && !empty(r.getImage()))
                return Optional.of(r.getImage());
        }
        return Optional.empty();
    }

    @SuppressWarnings("unchecked")
    private static List<String> acceptRisks(Update d) {
        Object raw =
                d.getAdditionalProperties() == null
                        ? null
                        : d.getAdditionalProperties().get("acceptRisks");
        List<String> out = new ArrayList<>();
        if (raw instanceof List<?> list) {
            for (Object o : list)
                if (o instanceof Map<?, ?> m && m.get("name") != null)
                    out.add(String.valueOf(m.get("name")));
        }
        return out;
    }

    private static <T> List<T> nonNull(List<T> l) {
        return l == null ? List.of() : l;
    }

    private static Resolution ok(Target t) {
        return new Resolution(t, null, null);
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
