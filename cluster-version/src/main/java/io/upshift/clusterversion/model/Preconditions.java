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

/**
 * The checks run before a new payload is applied
 * (https://github.com/openshift/cluster-version-operator pkg/payload/precondition/clusterversion):
 * rollback only to the previous release within its minor, no giant hops, Upgradeable=False blocks
 * minor and major updates, and a target outside the recommendations is a warning.
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
     * @param overridesSet an unmanaged override in spec.overrides
     * @param progressing the Progressing condition, if any
     */
    public record Input(
            SemVer current,
            SemVer target,
            List<UpdateHistory> history,
            ClusterOperatorStatusCondition upgradeable,
            List<Release> available,
            List<ConditionalUpdate> conditional,
            String channel,
            boolean overridesSet,
            ClusterOperatorStatusCondition progressing) {
        /** Without overrides, not progressing. */
        public Input(
                SemVer current,
                SemVer target,
                List<UpdateHistory> history,
                ClusterOperatorStatusCondition upgradeable,
                List<Release> available,
                List<ConditionalUpdate> conditional,
                String channel) {
            this(
                    current,
                    target,
                    history,
                    upgradeable,
                    available,
                    conditional,
                    channel,
                    false,
                    null);
        }
    }

    private Preconditions() {}

    public static List<Precondition> check(Input in) {
        List<Precondition> out = new ArrayList<>();
        rollback(in).ifPresent(out::add);
        giantHop(in).ifPresent(out::add);
        upgradeable(in).ifPresent(out::add);
        recommended(in).ifPresent(out::add);
        return out;
    }

    private static java.util.Optional<Precondition> rollback(Input in) {
        if (in.target().compareTo(in.current()) >= 0) return java.util.Optional.empty();
        UpdateHistory previous = previous(in.history(), in.current());
        if (previous == null || !in.target().toString().equals(previous.getVersion())) {
            String prev =
                    previous == null
                            ? "none"
                            : previous.getVersion() + " (" + previous.getImage() + ")";
            return java.util.Optional.of(
                    new Precondition(
                            Precondition.ROLLBACK,
                            "LowDesiredVersion",
                            in.target()
                                    + " is less than the current target "
                                    + in.current()
                                    + ", and the only supported rollback is to the cluster's"
                                    + " previous version "
                                    + prev,
                            true));
        }
        if (in.target().major() != in.current().major()
                || in.target().minor() != in.current().minor()) {
            return java.util.Optional.of(
                    new Precondition(
                            Precondition.ROLLBACK,
                            "LowDesiredVersion",
                            in.target()
                                    + " is less than the current target "
                                    + in.current()
                                    + " and matches the cluster's previous version, but rollbacks"
                                    + " that change major or minor versions are not supported",
                            true));
        }
        return java.util.Optional.empty();
    }

    /** The newest history entry of a release other than the current one. */
    private static UpdateHistory previous(List<UpdateHistory> history, SemVer current) {
        for (UpdateHistory h : history) {
            if (h.getVersion() != null && !h.getVersion().equals(current.toString())) return h;
        }
        return null;
    }

    private static java.util.Optional<Precondition> giantHop(Input in) {
        SemVer t = in.target(), c = in.current();
        if (t.major() > c.major()) {
            return java.util.Optional.of(
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
        if (t.major() == c.major() && t.minor() > c.minor() + 1) {
            return java.util.Optional.of(
                    new Precondition(
                            Precondition.GIANT_HOP,
                            "MultipleMinorVersionsUpdate",
                            t
                                    + " is more than one minor version beyond the current target "
                                    + c
                                    + " ("
                                    + t.majorMinor()
                                    + " > "
                                    + c.majorMinor()
                                    + " + 1), and only updates to the next minor version are"
                                    + " supported.",
                            true));
        }
        return java.util.Optional.empty();
    }

    /**
     * As upstream's ClusterVersionUpgradeable
     * (pkg/payload/precondition/clusterversion/upgradeable.go): while Upgradeable=False a minor or
     * major update is refused with its reason and message; a patch update, or a lower version, only
     * while overrides are set; a patch retarget during a minor update is a warning.
     */
    private static java.util.Optional<Precondition> upgradeable(Input in) {
        ClusterOperatorStatusCondition u = in.upgradeable();
        if (u == null || !"False".equals(u.getStatus())) return java.util.Optional.empty();
        SemVer current = in.current(), target = in.target();
        boolean patchOnly = target.major() == current.major() && target.minor() == current.minor();
        if (target.compareTo(current) <= 0 || patchOnly) {
            if (in.overridesSet())
                return java.util.Optional.of(
                        new Precondition(
                                Precondition.UPGRADEABLE,
                                "ClusterVersionOverridesSet",
                                OVERRIDES_MESSAGE,
                                true));
            String from = minorUpdateFrom(in);
            if (from != null && patchOnly) {
                return java.util.Optional.of(
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
            return java.util.Optional.empty();
        }
        return java.util.Optional.of(
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

    private static java.util.Optional<Precondition> recommended(Input in) {
        String target = in.target().toString();
        if (in.available().stream().anyMatch(r -> target.equals(r.getVersion())))
            return java.util.Optional.empty();
        for (ConditionalUpdate c : in.conditional()) {
            if (!target.equals(c.getRelease().getVersion())) continue;
            Condition rec = Conditions.META.find(c.getConditions(), "Recommended");
            if (rec == null) {
                return warning(
                        "UnknownConditionType",
                        "Update from "
                                + in.current()
                                + " to "
                                + target
                                + " has a conditional update entry, but no Recommended condition.");
            }
            if ("True".equals(rec.getStatus())) return java.util.Optional.empty();
            return warning(
                    rec.getReason(),
                    "Update from "
                            + in.current()
                            + " to "
                            + target
                            + " is not recommended:\n\n"
                            + rec.getMessage());
        }
        if (in.channel() == null || in.channel().isEmpty()) {
            return warning(
                    "NoChannel",
                    "Configured channel is unset, so the recommended status of updating from "
                            + in.current()
                            + " to "
                            + target
                            + " is unknown.");
        }
        return warning(
                "UnknownUpdate",
                "Update from "
                        + in.current()
                        + " to "
                        + target
                        + " is not among the recommended updates of channel "
                        + in.channel()
                        + ".");
    }

    private static java.util.Optional<Precondition> warning(String reason, String message) {
        return java.util.Optional.of(
                new Precondition(Precondition.RECOMMENDED, reason, message, false));
    }
}
