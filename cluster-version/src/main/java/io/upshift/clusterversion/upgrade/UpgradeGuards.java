package io.upshift.clusterversion.upgrade;

import static io.upshift.base.gofmt.GoStrings.indentLines;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoQuote;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * oc's client-side guards on requesting an update (its {@code checkForUpgrade}): the ClusterVersion
 * is Invalid, the cluster is Failing, or an update is already Progressing. {@code
 * --allow-upgrade-with-warnings} turns them into warnings.
 */
public final class UpgradeGuards {
    private UpgradeGuards() {}

    /**
     * What stands in the way, each concern as oc words it, joined by blank lines; empty when
     * nothing does.
     */
    public static Optional<String> check(ClusterVersion cv) {
        List<ClusterOperatorStatusCondition> cs =
                cv.getStatus() == null ? null : cv.getStatus().getConditions();
        List<String> results = new ArrayList<>();
        ClusterOperatorStatusCondition invalid = Conditions.CLUSTER.find(cs, "Invalid");
        if (invalid != null && "True".equals(invalid.getStatus())) {
            results.add(
                    "the cluster version object is invalid, you must correct the invalid state"
                            + " first:\n\n"
                            + reasonAndMessage(invalid));
        }
        ClusterOperatorStatusCondition failing = Conditions.CLUSTER.find(cs, "Failing");
        if (failing != null && "True".equals(failing.getStatus())) {
            Release desired = cv.getStatus().getDesired();
            String target = desired == null ? "" : nz(desired.getVersion());
            if (target.isEmpty()) target = desired == null ? "" : nz(desired.getImage());
            if (target.isEmpty())
                target =
                        "ClusterVersion status.desired has neither a version nor image; please open"
                                + " a bug";
            results.add(
                    "the cluster is experiencing an error reconciling "
                            + GoQuote.quote(target)
                            + ":\n\n"
                            + reasonAndMessage(failing));
        }
        ClusterOperatorStatusCondition progressing = Conditions.CLUSTER.find(cs, "Progressing");
        if (progressing != null && "True".equals(progressing.getStatus())) {
            results.add("the cluster is already upgrading:\n\n" + reasonAndMessage(progressing));
        }
        return results.isEmpty() ? Optional.empty() : Optional.of(String.join("\n\n", results));
    }

    static String reasonAndMessage(ClusterOperatorStatusCondition c) {
        return "  Reason: " + nz(c.getReason()) + "\n  Message: " + indentLines(nz(c.getMessage()));
    }

    static String nz(String s) {
        return s == null ? "" : s;
    }
}
