package io.upshift.core.cvo;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.upshift.core.version.SemVer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What the administrator asked for: {@code spec.desiredUpdate} by version (looked up in the available and
 * conditional updates), by image, or nothing (stay on the current release, or the release the controller runs when
 * none was applied yet). Invalid requests are reported, not acted on.
 */
public final class DesiredUpdates {

    /** A resolved target. {@code version} may be empty for an image given alone. */
    public record Target(String version, String image, boolean force, List<String> acceptRisks) {
    }

    /** Either a target or why the spec cannot be acted on (the Invalid condition). */
    public record Resolution(Target target, String invalidReason, String invalidMessage) {
        public boolean valid() {
            return target != null;
        }
    }

    private DesiredUpdates() {
    }

    public static Resolution resolve(ClusterVersion cv, String ownRelease) {
        Update d = cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate();
        Release current = cv.getStatus() == null ? null : cv.getStatus().getDesired();
        if (d == null || (empty(d.getVersion()) && empty(d.getImage()))) {
            // Risks may be accepted before any update is asked for (upgrade accept, or --clear, which keeps them).
            List<String> accept = d == null ? List.of() : acceptRisks(d);
            if (current != null && !empty(current.getImage())) return ok(new Target(nz(current.getVersion()), current.getImage(), false, accept));
            if (!empty(ownRelease)) return ok(new Target("", bare(ownRelease), false, accept));
            return invalid("NoDesiredRelease", "No release is running and spec.desiredUpdate names none");
        }
        boolean force = Boolean.TRUE.equals(d.getForce());
        List<String> accept = acceptRisks(d);
        if (!empty(d.getVersion()) && !SemVer.isValid(d.getVersion())) {
            return invalid("InvalidDesiredUpdate", "spec.desiredUpdate.version \"" + d.getVersion() + "\" is not a semantic version; the desired update is ignored");
        }
        if (!empty(d.getImage())) return ok(new Target(nz(d.getVersion()), bare(d.getImage()), force, accept));
        if (current != null && d.getVersion().equals(current.getVersion()) && !empty(current.getImage())) {
            return ok(new Target(d.getVersion(), current.getImage(), force, accept));
        }
        Optional<String> image = imageOf(cv, d.getVersion());
        if (image.isEmpty()) {
            return invalid("UnknownUpdate", "spec.desiredUpdate.version " + d.getVersion()
                    + " is neither an available nor a conditional update of this cluster; set spec.desiredUpdate.image to name the release");
        }
        return ok(new Target(d.getVersion(), image.get(), force, accept));
    }

    /**
     * The pullspec a kubelet can pull: {@code docker://HOST/REPO@…} without its scheme, which is how the image is
     * written to the cluster (status, history, the controller's own Deployment).
     */
    public static String bare(String image) {
        return image.startsWith("docker://") ? image.substring("docker://".length()) : image;
    }

    private static Optional<String> imageOf(ClusterVersion cv, String version) {
        if (cv.getStatus() == null) return Optional.empty();
        for (Release r : nonNull(cv.getStatus().getAvailableUpdates())) if (version.equals(r.getVersion())) return Optional.of(r.getImage());
        for (ConditionalUpdate c : nonNull(cv.getStatus().getConditionalUpdates())) {
            if (version.equals(c.getRelease().getVersion())) return Optional.of(c.getRelease().getImage());
        }
        return Optional.empty();
    }

    @SuppressWarnings("unchecked")
    private static List<String> acceptRisks(Update d) {
        Object raw = d.getAdditionalProperties() == null ? null : d.getAdditionalProperties().get("acceptRisks");
        List<String> out = new ArrayList<>();
        if (raw instanceof List<?> list) {
            for (Object o : list) if (o instanceof java.util.Map<?, ?> m && m.get("name") != null) out.add(String.valueOf(m.get("name")));
        }
        return out;
    }

    private static <T> List<T> nonNull(List<T> l) {
        return l == null ? List.of() : l;
    }

    private static Resolution ok(Target t) {
        return new Resolution(t, null, null);
    }

    private static Resolution invalid(String reason, String message) {
        return new Resolution(null, reason, message);
    }

    private static boolean empty(String s) {
        return s == null || s.isEmpty();
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
