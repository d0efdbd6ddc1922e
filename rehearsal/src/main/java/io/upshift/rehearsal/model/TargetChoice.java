package io.upshift.rehearsal.model;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.upshift.base.conditions.Conditions;
import io.upshift.releases.metadata.PullSpec;
import java.util.List;
import java.util.stream.Stream;

/**
 * Which release {@code --to VERSION} or {@code --to-image REF} names on this cluster: one of its
 * available updates, one of its conditional updates, or (by image only) a release it does not know.
 * A version the cluster knows no update to is bad input.
 *
 * @param version "" when given by an image the cluster does not know (its payload says)
 * @param found how the cluster knows it, for the report
 */
public record TargetChoice(String version, String image, String found) {

    /**
     * @throws IllegalArgumentException in one line, naming the version and what the cluster offers
     */
    public static TargetChoice of(ClusterVersion cv, String to, String toImage) {
        var status = cv.getStatus();
        List<Release> available =
                status == null || status.getAvailableUpdates() == null
                        ? List.of()
                        : status.getAvailableUpdates();
        List<ConditionalUpdate> conditional =
                status == null || status.getConditionalUpdates() == null
                        ? List.of()
                        : status.getConditionalUpdates();
        String current =
                status == null || status.getDesired() == null
                        ? null
                        : status.getDesired().getVersion();
        for (Release r : available) {
            if (matches(r, to, toImage))
                return new TargetChoice(
                        nz(r.getVersion()),
                        toImage.isEmpty() ? nz(r.getImage()) : toImage,
                        "among the cluster's available updates");
        }
        for (ConditionalUpdate c : conditional) {
            Release r = c.getRelease() == null ? new Release() : c.getRelease();
            if (!matches(r, to, toImage)) continue;
            Condition rec = Conditions.META.find(c.getConditions(), "Recommended");
            return new TargetChoice(
                    nz(r.getVersion()),
                    toImage.isEmpty() ? nz(r.getImage()) : toImage,
                    "a conditional update"
                            + (rec == null
                                    ? ""
                                    : " (Recommended="
                                            + rec.getStatus()
                                            + (rec.getReason() == null
                                                    ? ""
                                                    : ": " + rec.getReason())
                                            + ")"));
        }
        if (!toImage.isEmpty()) {
            return new TargetChoice(
                    "", toImage, "given by image: not among the cluster's available updates");
        }
        if (to.equals(current))
            throw new IllegalArgumentException(
                    "the cluster is already at " + to + ": there is no update to rehearse");
        List<String> versions =
                Stream.concat(
                                available.stream().map(Release::getVersion),
                                conditional.stream()
                                        .map(
                                                c ->
                                                        c.getRelease() == null
                                                                ? null
                                                                : c.getRelease().getVersion()))
                        .filter(v -> v != null && !v.isEmpty())
                        .toList();
        throw new IllegalArgumentException(
                to
                        + " is not an update the cluster knows of ("
                        + (versions.isEmpty()
                                ? "it knows none: no channel, or no update service"
                                : "it knows " + String.join(", ", versions))
                        + "): give the release's image with --to-image");
    }

    /** oc's match: the version, or the image or its digest. */
    private static boolean matches(Release r, String to, String toImage) {
        if (!to.isEmpty()) return to.equals(r.getVersion());
        if (toImage.equals(r.getImage())) return true;
        try {
            String wanted = PullSpec.parse(toImage).id();
            return !wanted.isEmpty() && wanted.equals(PullSpec.parse(nz(r.getImage())).id());
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
