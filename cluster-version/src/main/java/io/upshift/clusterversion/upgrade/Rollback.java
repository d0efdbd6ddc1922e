package io.upshift.clusterversion.upgrade;

import static io.upshift.base.gofmt.GoQuote.quote;
import static io.upshift.clusterversion.upgrade.UpgradeGuards.nz;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.version.SemVer;
import io.upshift.base.version.SemVerSyntax;
import java.util.List;

/**
 * {@code oc adm upgrade rollback} as in oc 4.19 ({@code pkg/cli/admin/upgrade/rollback}): back to
 * the most recent release the cluster was attempting before its current target, which is the first
 * history entry whose version or image differs from {@code status.desired} (after a retarget 4.18.1
 * -> 4.18.2 (partial) -> 4.18.3 that is 4.18.2, not 4.18.1). Only an older patch release of the
 * same major.minor, and only while nothing is Progressing.
 */
public final class Rollback {
    private Rollback() {}

    /**
     * {@code self} is how the user runs the update command ("upshift upgrade"), named in one
     * refusal.
     */
    public static Decision decide(ClusterVersion cv, String self) {
        Release desired =
                cv.getStatus() == null || cv.getStatus().getDesired() == null
                        ? new Release()
                        : cv.getStatus().getDesired();
        SemVerSyntax.Parsed target = SemVerSyntax.parse(nz(desired.getVersion()));
        if (!target.valid())
            return refuse("invalid ClusterVersion status.desired.version: " + target.error());
        SemVer current = target.version();
        String currentImage = nz(desired.getImage());

        SemVer previous = null;
        String previousImage = null;
        List<UpdateHistory> history =
                cv.getStatus().getHistory() == null ? List.of() : cv.getStatus().getHistory();
        for (UpdateHistory entry : history) {
            if (!current.toString().equals(entry.getVersion())
                    || !currentImage.equals(nz(entry.getImage()))) {
                SemVerSyntax.Parsed version = SemVerSyntax.parse(nz(entry.getVersion()));
                if (!version.valid())
                    return refuse(
                            "previous version "
                                    + quote(nz(entry.getVersion()))
                                    + " invalid SemVer: "
                                    + version.error());
                previous = version.version();
                previousImage = nz(entry.getImage());
                break;
            }
        }
        if (previous == null) {
            return refuse(
                    "no previous version found in ClusterVersion's status.history besides the"
                            + " current "
                            + current
                            + " ("
                            + currentImage
                            + ").");
        }
        if (previous.compareTo(current) >= 0) {
            return refuse(
                    "previous version "
                            + previous
                            + " ("
                            + previousImage
                            + ") is greater than or equal to current version "
                            + current
                            + " ("
                            + currentImage
                            + ").  Use '"
                            + self
                            + " ...' to update, and not this rollback command.");
        }
        if (previous.major() != current.major() || previous.minor() != current.minor()) {
            return refuse(
                    previous
                            + " is less than the current target "
                            + current
                            + " and matches the cluster's previous version, but rollbacks that"
                            + " change major or minor versions are not recommended.");
        }
        ClusterOperatorStatusCondition progressing =
                Conditions.CLUSTER.find(cv.getStatus().getConditions(), "Progressing");
        if (progressing == null)
            return refuse(
                    "no current Progressing info, see `oc describe clusterversion` for more"
                            + " details.\n");
        if (!"False".equals(progressing.getStatus())) {
            return refuse(
                    "unable to rollback while an update is "
                            + progressing.getType()
                            + "="
                            + nz(progressing.getStatus())
                            + ": "
                            + nz(progressing.getReason())
                            + ": "
                            + nz(progressing.getMessage())
                            + ".");
        }
        String body = DesiredUpdatePatch.of("", previous.toString(), previousImage, false, null);
        String done = "Requested rollback from " + current + " to " + previous + "\n";
        return new Decision.Patch(List.of(), body, "Unable to rollback", written -> done);
    }

    private static Decision refuse(String message) {
        return new Decision.Refused(List.of(), message);
    }
}
