package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.version.SemVer;
import java.util.List;
import java.util.Optional;

/**
 * Upstream's validation of {@code spec.desiredUpdate}
 * (https://github.com/openshift/cluster-version-operator/blob/release-4.19/lib/validation/validation.go),
 * its errors worded as Kubernetes' field errors are: a request naming nothing, a version that is
 * not a semantic version, and a version without image that is not one available update (or a
 * release in history).
 */
public final class ClusterVersionValidation {

    private ClusterVersionValidation() {}

    /** The field error of {@code spec.desiredUpdate}, if any. */
    public static Optional<String> desiredUpdate(ClusterVersion cv) {
        Update u = cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate();
        if (u == null) return Optional.empty();
        String version = nz(u.getVersion());
        if (version.isEmpty() && nz(u.getImage()).isEmpty() && nz(u.getArchitecture()).isEmpty()) {
            return Optional.of(
                    "spec.desiredUpdate: Required value: must specify architecture, version, or"
                            + " image");
        }
        if (!version.isEmpty() && !SemVer.isValid(version)) {
            return Optional.of(invalidVersion(version, "must be a semantic version (1.2.3[-...])"));
        }
        if (!version.isEmpty() && nz(u.getImage()).isEmpty()) {
            int payloads = payloadsFor(cv, version);
            if (payloads == 0)
                return Optional.of(
                        invalidVersion(
                                version,
                                "when image is empty the update must be an available update"));
            if (payloads > 1)
                return Optional.of(
                        invalidVersion(
                                version,
                                "there are multiple possible payloads for this version, specify the"
                                        + " exact image"));
        }
        return Optional.empty();
    }

    /**
     * The images {@code version} could mean: those among the available updates, else one when
     * history holds it.
     */
    private static int payloadsFor(ClusterVersion cv, String version) {
        if (cv.getStatus() == null) return 0;
        int count = 0;
        for (Release r : nonNull(cv.getStatus().getAvailableUpdates())) {
            if (version.equals(r.getVersion()) && !nz(r.getImage()).isEmpty()) count++;
        }
        if (count > 0) return count;
        for (UpdateHistory h : nonNull(cv.getStatus().getHistory())) {
            if (version.equals(h.getVersion()) && !nz(h.getImage()).isEmpty()) return 1;
        }
        return 0;
    }

    private static String invalidVersion(String version, String detail) {
        return "spec.desiredUpdate.version: Invalid value: " + quoted(version) + ": " + detail;
    }

    /** As Go's %q writes a string. */
    static String quoted(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) b.append(String.format("\\x%02x", (int) c));
                    else b.append(c);
                }
            }
        }
        return b.append('"').toString();
    }

    private static <T> List<T> nonNull(List<T> l) {
        return l == null ? List.of() : l;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
