package io.upshift.clusterversion.model;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.version.SemVer;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The checks run before a new payload is applied
 * (https://github.com/openshift/cluster-version-operator pkg/payload/precondition/clusterversion):
 * rollback only to the previous release within its minor, no giant hops, Upgradeable=False blocks
 * minor and major updates, and a target outside the recommendations is a warning; in upstream's
 * words, which {@link PreconditionSummary} puts together.
 */
public final class Preconditions {

    /**
     * Why unmanaged overrides hold every update (the Upgradeable check's and the precondition's
     * message).
     */
    static final String OVERRIDES_MESSAGE =
            "Disabling ownership via cluster version overrides prevents upgrades. Please remove"
                    + " overrides before continuing.";

    /**
     * What the checks look at: the versions, and ClusterVersion as the cluster holds it.
     *
     * @param current status.desired's version; {@code currentImage} its image
     * @param retrievedUpdates the RetrievedUpdates condition, if any
     * @param overridesSet an unmanaged override in spec.overrides
     * @param progressing the Progressing condition, if any
     */
    public record Input(
            SemVer current,
            String currentImage,
            SemVer target,
            List<UpdateHistory> history,
            ClusterOperatorStatusCondition upgradeable,
            List<Release> available,
            List<ConditionalUpdate> conditional,
            String channel,
            ClusterOperatorStatusCondition retrievedUpdates,
            boolean overridesSet,
            ClusterOperatorStatusCondition progressing) {}

    private Preconditions() {}

    public static List<Precondition> check(Input in) {
        List<Precondition> out = new ArrayList<>();
        rollback(in).ifPresent(out::add);
        giantHop(in).ifPresent(out::add);
        upgradeable(in).ifPresent(out::add);
        recommended(in).ifPresent(out::add);
        return out;
    }

    /**
     * As upstream's ClusterVersionRollback (pkg/payload/precondition/clusterversion/rollback.go): a
     * lower version only to the cluster's previous one (the newest history entry of another version
     * or image), and only within its minor.
     */
    private static Optional<Precondition> rollback(Input in) {
        SemVer target = in.target(), current = in.current();
        if (target.compareTo(current) >= 0) return Optional.empty();
        UpdateHistory previous = previous(in);
        String head = target + " is less than the current target " + current;
        if (previous == null || !SemVer.isValid(previous.getVersion())) {
            return lowDesiredVersion(head + ", and the cluster has no previous Semantic Version");
        }
        SemVer version = SemVer.parse(previous.getVersion());
        if (target.compareTo(version) != 0) {
            return lowDesiredVersion(
                    head
                            + ", and the only supported rollback is to the cluster's previous"
                            + " version "
                            + version
                            + " ("
                            + previous.getImage()
                            + ")");
        }
        if (version.major() == current.major() && version.minor() == current.minor())
            return Optional.empty();
        return lowDesiredVersion(
                head
                        + " and matches the cluster's previous version, but rollbacks that change"
                        + " major or minor versions are not recommended");
    }

    private static Optional<Precondition> lowDesiredVersion(String message) {
        return Optional.of(
                new Precondition(Precondition.ROLLBACK, "LowDesiredVersion", message, true));
    }

    /** The newest history entry of a release other than status.desired; null when none. */
    private static UpdateHistory previous(Input in) {
        for (UpdateHistory h : in.history()) {
            if (!in.current().toString().equals(h.getVersion())
                    || !Objects.equals(in.currentImage(), h.getImage())) return h;
        }
        return null;
    }

    /**
     * As upstream's ClusterVersionGiantHop (gianthop.go): no larger major version, and at most one
     * minor version ahead.
     */
    private static Optional<Precondition> giantHop(Input in) {
        SemVer t = in.target(), c = in.current();
        if (t.major() > c.major()) {
            return Optional.of(
                    new Precondition(
                            Precondition.GIANT_HOP,
                            "MajorVersionUpdate",
                            t
                                    + " has a larger major version than the current target "
                                    + c
                                    + " ("
                                    + t.major()
                                    + " > "
                                    + c.major()
                                    + "), and only updates within the current major version are"
                                    + " supported.",
                            true));
        }
        if (t.minor() > c.minor() + 1) {
            return Optional.of(
                    new Precondition(
                            Precondition.GIANT_HOP,
                            "MultipleMinorVersionsUpdate",
                            t
                                    + " is more than one minor version beyond the current target "
                                    + c
                                    + " ("
                                    + t.major()
                                    + "."
                                    + t.minor()
                                    + " > "
                                    + c.major()
                                    + ".("
                                    + c.minor()
                                    + "+1)), and only updates within the current minor version or"
                                    + " to the next minor version are supported.",
                            true));
        }
        return Optional.empty();
    }

    /**
     * As upstream's ClusterVersionUpgradeable
     * (pkg/payload/precondition/clusterversion/upgradeable.go): while Upgradeable=False a minor or
     * major update is refused with its reason and message; a patch update, or a lower version, only
     * while overrides are set; a patch retarget during a minor update is a warning.
     */
    private static Optional<Precondition> upgradeable(Input in) {
        ClusterOperatorStatusCondition u = in.upgradeable();
        if (u == null || !"False".equals(u.getStatus())) return Optional.empty();
        SemVer current = in.current(), target = in.target();
        boolean patchOnly = target.major() == current.major() && target.minor() == current.minor();
        if (target.compareTo(current) <= 0 || patchOnly) {
            if (in.overridesSet())
                return Optional.of(
                        new Precondition(
                                Precondition.UPGRADEABLE,
                                "ClusterVersionOverridesSet",
                                OVERRIDES_MESSAGE,
                                true));
            String from = minorUpdateFrom(in);
            if (from != null && patchOnly) {
                return Optional.of(
                        new Precondition(
                                Precondition.UPGRADEABLE,
                                "MinorVersionClusterUpdateInProgress",
                                "Retarget to "
                                        + target
                                        + " while a minor level update from "
                                        + from
                                        + " to "
                                        + current
                                        + " is in progress",
                                false));
            }
            return Optional.empty();
        }
        return Optional.of(
                new Precondition(
                        Precondition.UPGRADEABLE, nz(u.getReason()), nz(u.getMessage()), true));
    }

    /**
     * The version the cluster completed, when a minor update from it to {@code current} is in
     * progress; else null.
     */
    private static String minorUpdateFrom(Input in) {
        String completed = AdminGates.currentVersion(in.history());
        if (completed.isEmpty() || !SemVer.isValid(completed)) return null;
        SemVer v = SemVer.parse(completed);
        boolean progressing =
                in.progressing() != null && "True".equals(in.progressing().getStatus());
        return progressing && v.major() == in.current().major() && v.minor() < in.current().minor()
                ? completed
                : null;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    /**
     * As upstream's ClusterVersionRecommendedUpdate (recommendedupdate.go), a warning only: a
     * target that is neither an available update nor a conditional update recommended for this
     * cluster, or whose recommendation is not known.
     */
    private static Optional<Precondition> recommended(Input in) {
        String target = in.target().toString();
        String fromTo = "from " + in.current() + " to " + target;
        if (in.available().stream().anyMatch(r -> target.equals(r.getVersion())))
            return Optional.empty();
        for (ConditionalUpdate c : in.conditional()) {
            if (c.getRelease() == null || !target.equals(c.getRelease().getVersion())) continue;
            Condition rec = Conditions.META.find(c.getConditions(), "Recommended");
            if (rec == null) {
                return warning(
                        "UnknownConditionType",
                        "Update "
                                + fromTo
                                + " has a status.conditionalUpdates entry, but no Recommended"
                                + " condition.");
            }
            if ("True".equals(rec.getStatus())) return Optional.empty();
            if ("False".equals(rec.getStatus())) {
                return warning(
                        nz(rec.getReason()),
                        "Update " + fromTo + " is not recommended:\n\n" + nz(rec.getMessage()));
            }
            return warning(
                    nz(rec.getReason()),
                    "Update "
                            + fromTo
                            + " is "
                            + rec.getType()
                            + "="
                            + rec.getStatus()
                            + ": "
                            + nz(rec.getReason())
                            + ": "
                            + nz(rec.getMessage()));
        }
        if (in.channel() == null || in.channel().isEmpty()) {
            return warning(
                    "NoChannel",
                    "Configured channel is unset, so the recommended status of updating "
                            + fromTo
                            + " is unknown.");
        }
        ClusterOperatorStatusCondition retrieved = in.retrievedUpdates();
        if (retrieved == null) {
            return warning(
                    "UnknownUpdate",
                    "No RetrievedUpdates, so the recommended status of updating "
                            + fromTo
                            + " is unknown.");
        }
        String state =
                "RetrievedUpdates="
                        + retrieved.getStatus()
                        + " ("
                        + nz(retrieved.getReason())
                        + "), so ";
        return warning(
                "UnknownUpdate",
                "True".equals(retrieved.getStatus())
                        ? state
                                + "the update "
                                + fromTo
                                + " is probably neither recommended nor supported."
                        : state + "the recommended status of updating " + fromTo + " is unknown.");
    }

    private static Optional<Precondition> warning(String reason, String message) {
        return Optional.of(new Precondition(Precondition.RECOMMENDED, reason, message, false));
    }
}
