package io.upshift.rehearsal.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.version.SemVer;
import io.upshift.clusterversion.model.Precondition;
import io.upshift.clusterversion.model.Preconditions;
import io.upshift.clusterversion.model.Upgradeable;
import io.upshift.clusterversion.upgrade.Decision;
import io.upshift.clusterversion.upgrade.UpgradeFlags;
import io.upshift.clusterversion.upgrade.UpgradeRequest;
import java.util.ArrayList;
import java.util.List;

/**
 * What would refuse the update before it starts, each in the words of whoever would refuse it: the
 * request itself ({@code upshift upgrade}, as {@code oc adm upgrade}: not a recommended update, the
 * cluster failing or already updating), the signature check and the preconditions of the
 * cluster-version controller (Upgradeable=False with its reasons, missing admin acks, a rollback or
 * giant hop), and the conditional risks the cluster's update service reported for the target. The
 * controller's Upgradeable condition is computed again from what the cluster holds now, as the
 * controller would at its next pass (an ack given since shows at once).
 */
public final class Refusals {
    static final String CONTROLLER = "cluster-version controller";
    static final String REQUEST = "upshift upgrade";

    private Refusals() {}

    /**
     * @param asked what the rehearsal was asked, as {@code upshift upgrade}'s flags ({@code --to}
     *     or {@code --to-image})
     */
    public static List<Blocker> of(ClusterFacts facts, Target target, UpgradeFlags asked) {
        List<Blocker> out = new ArrayList<>();
        request(facts.clusterVersion(), asked, out);
        verification(target, asked.force(), out);
        preconditions(facts, target, asked.force(), out);
        return out;
    }

    /** As {@code upshift upgrade} with the same flags: a refusal, and its warnings. */
    private static void request(ClusterVersion cv, UpgradeFlags asked, List<Blocker> out) {
        if (asked.toImage().startsWith("oci:")) {
            out.add(
                    Blocker.warns(
                            "rehearsal",
                            "RequestNotChecked",
                            "The request was not checked as upshift upgrade would check it: "
                                    + asked.toImage()
                                    + " is an OCI layout on this machine, no pullspec it takes"));
            return;
        }
        UpgradeRequest.FlagCheck flags = UpgradeRequest.check(asked);
        flags.warnings().forEach(w -> out.add(Blocker.warns(REQUEST, "Warning", warning(w))));
        if (flags.refusal().isPresent()) {
            out.add(Blocker.refuses(REQUEST, "Refused", flags.refusal().get()));
            return;
        }
        Decision d = UpgradeRequest.decide(asked, cv);
        d.warnings().forEach(w -> out.add(Blocker.warns(REQUEST, "Warning", warning(w))));
        if (d instanceof Decision.Refused r) {
            out.add(Blocker.refuses(REQUEST, "Refused", r.message().strip()));
        }
    }

    private static String warning(String w) {
        return w.strip().replaceFirst("^warning: ", "");
    }

    /**
     * A signature that does not verify refuses the update, or, forced, is the risk the controller
     * records as accepted (in its words).
     */
    private static void verification(Target target, boolean force, List<Blocker> out) {
        Target.Verification v = target.verification();
        switch (v.outcome()) {
            case VERIFIED -> {}
            case FAILED -> {
                if (force) {
                    out.add(
                            Blocker.warns(
                                    CONTROLLER,
                                    "RetrievePayload",
                                    "Target release version=\""
                                            + target.version()
                                            + "\" image=\""
                                            + target.image()
                                            + "\" cannot be verified, but continuing anyway"
                                            + " because the update was forced: The update cannot"
                                            + " be verified: "
                                            + v.detail()));
                    return;
                }
                out.add(
                        Blocker.refuses(
                                CONTROLLER,
                                "RetrievePayload",
                                "Retrieving payload failed version=\""
                                        + target.version()
                                        + "\" image=\""
                                        + target.image()
                                        + "\" failure=The update cannot be verified: "
                                        + v.detail()));
            }
            case NOT_CHECKED ->
                    out.add(
                            Blocker.warns(
                                    "rehearsal",
                                    "VerificationNotChecked",
                                    "The signature of "
                                            + target.image()
                                            + " was not checked: "
                                            + v.detail()));
        }
    }

    /**
     * The controller's preconditions, on the Upgradeable condition it would compute now: blocking
     * ones as its ReleaseAccepted message words each, the others as the risks it would record.
     */
    private static void preconditions(
            ClusterFacts facts, Target target, boolean force, List<Blocker> out) {
        ClusterVersion cv = facts.clusterVersion();
        ClusterVersionStatus status = cv.getStatus();
        String current = facts.currentVersion();
        if (!SemVer.isValid(current) || !SemVer.isValid(target.version())) {
            out.add(
                    Blocker.warns(
                            "rehearsal",
                            "PreconditionsNotChecked",
                            "The preconditions were not checked: "
                                    + (SemVer.isValid(current)
                                            ? "the target's version is not known"
                                            : "the cluster's version \""
                                                    + current
                                                    + "\" is not a semantic version")));
            return;
        }
        ClusterOperatorStatusCondition upgradeable = upgradeable(facts);
        SemVer from = SemVer.parse(current), to = SemVer.parse(target.version());
        List<Precondition> results =
                Preconditions.check(
                        new Preconditions.Input(
                                from,
                                facts.currentImage(),
                                to,
                                list(status.getHistory()),
                                upgradeable,
                                list(status.getAvailableUpdates()),
                                list(status.getConditionalUpdates()),
                                cv.getSpec() == null ? null : cv.getSpec().getChannel(),
                                Conditions.CLUSTER.find(status.getConditions(), "RetrievedUpdates"),
                                cv.getSpec() != null
                                        && cv.getSpec().getOverrides() != null
                                        && cv.getSpec().getOverrides().stream()
                                                .anyMatch(
                                                        o -> Boolean.TRUE.equals(o.getUnmanaged())),
                                Conditions.CLUSTER.find(status.getConditions(), "Progressing")));
        for (Precondition p : results) {
            if (p.blocking() && force) {
                out.add(
                        Blocker.warns(
                                CONTROLLER,
                                p.reason(),
                                "Forced through blocking failures: Precondition \""
                                        + p.name()
                                        + "\" failed because of \""
                                        + p.reason()
                                        + "\": "
                                        + p.message()));
            } else if (p.blocking()) {
                out.add(
                        Blocker.refuses(
                                CONTROLLER,
                                "PreconditionChecks",
                                "Precondition \""
                                        + p.name()
                                        + "\" failed because of \""
                                        + p.reason()
                                        + "\": "
                                        + p.message()));
            } else {
                out.add(Blocker.warns(CONTROLLER, p.reason(), p.name() + ": " + p.message()));
            }
        }
        boolean patch = from.major() == to.major() && from.minor() == to.minor();
        if (upgradeable != null && patch) {
            out.add(
                    Blocker.warns(
                            CONTROLLER,
                            upgradeable.getReason(),
                            "Upgradeable=False: "
                                    + upgradeable.getMessage()
                                    + " (this holds minor updates, not a patch update)"));
        }
    }

    /** The Upgradeable condition the controller would set now; null when it would set none. */
    static ClusterOperatorStatusCondition upgradeable(ClusterFacts facts) {
        ClusterVersion cv = facts.clusterVersion();
        Upgradeable u =
                Upgradeable.of(
                        new Upgradeable.Facts(
                                facts.state().operators(),
                                cv.getSpec() == null ? null : cv.getSpec().getOverrides(),
                                facts.adminGates(),
                                List.of()),
                        cv.getStatus());
        if (u.failed().isEmpty()) return null;
        ClusterOperatorStatusCondition c = new ClusterOperatorStatusCondition();
        c.setType(Upgradeable.TYPE);
        c.setStatus(u.status());
        c.setReason(u.reason());
        c.setMessage(u.message());
        return c;
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }
}
