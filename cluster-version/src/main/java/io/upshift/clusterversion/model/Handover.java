package io.upshift.clusterversion.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.releases.manifest.Manifest;

/**
 * Who may say that an update Completed. A payload whose Deployment runs the release image (the
 * controller's own, run-level 0) replaces the controller in the middle of the update: the
 * controller that stays is the one running that image, given that release ({@code --release}). Only
 * it records Completed, after its own start (its payload accepted and recorded, its first pass
 * applied), so that nothing it writes at start lands after history says Completed. An outgoing
 * controller that finds every manifest applied and its own Deployment rolled out (a RollingUpdate
 * strategy, which starts the next pod before it stops this one) goes on waiting to be replaced. A
 * payload that runs no controller of its own (or whose controller Deployment the cluster's
 * overrides leave unmanaged) replaces nothing: the controller applying it stays, and records
 * Completed.
 *
 * <p>Upstream's operator has no such rule: whichever operator first completes a pass records
 * Completed (pkg/cvo/status.go mergeOperatorHistory); its outgoing operator is stopped by the
 * rollout of its own Deployment before it can, as a rule.
 */
public final class Handover {

    private Handover() {}

    /** Whether {@code m} is a Deployment one of whose containers runs {@code releaseImage}. */
    public static boolean runsRelease(Manifest m, String releaseImage) {
        if (releaseImage == null || !("apps".equals(m.group()) && "Deployment".equals(m.kind())))
            return false;
        for (JsonNode c :
                m.object().path("spec").path("template").path("spec").path("containers")) {
            if (releaseImage.equals(c.path("image").asText())) return true;
        }
        return false;
    }

    /**
     * Whether a complete pass over the payload of {@code target} lets this controller record
     * Completed.
     *
     * @param handsOver the pass applied a Deployment running the target release image
     * @param ownRelease the release this controller runs ({@code --release}); null when none
     * @param target the target release image, by digest
     */
    public static boolean mayComplete(boolean handsOver, String ownRelease, String target) {
        return !handsOver || (ownRelease != null && DesiredUpdates.bare(ownRelease).equals(target));
    }
}
