package io.upshift.core.cvo;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.core.conditions.Conditions;
import io.upshift.core.version.SemVer;
import java.util.ArrayList;
import java.util.List;

/**
 * The checks run before a new payload is applied (https://github.com/openshift/cluster-version-operator
 * pkg/payload/precondition/clusterversion): rollback only to the previous release within its minor, no giant hops,
 * Upgradeable=False blocks minor and major updates, and a target outside the recommendations is a warning.
 */
public final class Preconditions {

    /** What the checks look at. */
    public record Input(SemVer current, SemVer target, List<UpdateHistory> history, ClusterOperatorStatusCondition upgradeable,
                        List<Release> available, List<ConditionalUpdate> conditional, String channel) {
    }

    private Preconditions() {
    }

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
            String prev = previous == null ? "none" : previous.getVersion() + " (" + previous.getImage() + ")";
            return java.util.Optional.of(new Precondition(Precondition.ROLLBACK, "LowDesiredVersion", in.target() + " is less than the current target "
                    + in.current() + ", and the only supported rollback is to the cluster's previous version " + prev, true));
        }
        if (in.target().major() != in.current().major() || in.target().minor() != in.current().minor()) {
            return java.util.Optional.of(new Precondition(Precondition.ROLLBACK, "LowDesiredVersion", in.target() + " is less than the current target "
                    + in.current() + " and matches the cluster's previous version, but rollbacks that change major or minor versions are not supported", true));
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
            return java.util.Optional.of(new Precondition(Precondition.GIANT_HOP, "MajorVersionUpdate", t + " has a larger major version than the current target "
                    + c + " (" + t.major() + " > " + c.major() + "), and only updates within the current major version are supported.", true));
        }
        if (t.major() == c.major() && t.minor() > c.minor() + 1) {
            return java.util.Optional.of(new Precondition(Precondition.GIANT_HOP, "MultipleMinorVersionsUpdate", t + " is more than one minor version beyond the current target "
                    + c + " (" + t.majorMinor() + " > " + c.majorMinor() + " + 1), and only updates to the next minor version are supported.", true));
        }
        return java.util.Optional.empty();
    }

    private static java.util.Optional<Precondition> upgradeable(Input in) {
        ClusterOperatorStatusCondition u = in.upgradeable();
        boolean minorOrMajor = in.target().major() != in.current().major() || in.target().minor() != in.current().minor();
        if (u == null || !"False".equals(u.getStatus()) || !minorOrMajor || in.target().compareTo(in.current()) < 0) return java.util.Optional.empty();
        return java.util.Optional.of(new Precondition(Precondition.UPGRADEABLE, u.getReason() == null ? "UpgradeableFalse" : u.getReason(),
                "Update from " + in.current() + " to " + in.target() + " is blocked by Upgradeable=False (" + u.getReason() + "): " + u.getMessage(), true));
    }

    private static java.util.Optional<Precondition> recommended(Input in) {
        String target = in.target().toString();
        if (in.available().stream().anyMatch(r -> target.equals(r.getVersion()))) return java.util.Optional.empty();
        for (ConditionalUpdate c : in.conditional()) {
            if (!target.equals(c.getRelease().getVersion())) continue;
            Condition rec = Conditions.META.find(c.getConditions(), "Recommended");
            if (rec == null) {
                return warning("UnknownConditionType", "Update from " + in.current() + " to " + target + " has a conditional update entry, but no Recommended condition.");
            }
            if ("True".equals(rec.getStatus())) return java.util.Optional.empty();
            return warning(rec.getReason(), "Update from " + in.current() + " to " + target + " is not recommended:\n\n" + rec.getMessage());
        }
        if (in.channel() == null || in.channel().isEmpty()) {
            return warning("NoChannel", "Configured channel is unset, so the recommended status of updating from " + in.current() + " to " + target + " is unknown.");
        }
        return warning("UnknownUpdate", "Update from " + in.current() + " to " + target + " is not among the recommended updates of channel " + in.channel() + ".");
    }

    private static java.util.Optional<Precondition> warning(String reason, String message) {
        return java.util.Optional.of(new Precondition(Precondition.RECOMMENDED, reason, message, false));
    }
}
