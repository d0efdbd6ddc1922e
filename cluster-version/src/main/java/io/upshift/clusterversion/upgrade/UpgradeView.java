package io.upshift.clusterversion.upgrade;

import static io.upshift.base.gofmt.GoStrings.indentLines;
import static io.upshift.base.gofmt.GoStrings.trimSpace;
import static io.upshift.clusterversion.upgrade.UpgradeGuards.nz;
import static io.upshift.clusterversion.upgrade.UpgradeGuards.reasonAndMessage;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.GoQuote;
import io.upshift.base.gofmt.Tabwriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What bare {@code upshift upgrade} prints, byte for byte what bare {@code oc adm upgrade} prints
 * (openshift/oc {@code pkg/cli/admin/upgrade/upgrade.go}, release-4.19, the default case of {@code
 * Run}): Failing unless False, the Progressing message, Upgradeable=False, ReleaseAccepted unless
 * True, upstream and channel, the recommended updates newest first, and the updates with known
 * issues or a note that there are some. Its warnings go to stderr.
 */
public final class UpgradeView {

    /** stdout and stderr text. */
    public record Output(String out, String err) {}

    private UpgradeView() {}

    public static Output render(ClusterVersion cv, boolean includeNotRecommended) {
        return render(cv, includeNotRecommended, Optional.empty());
    }

    /**
     * As oc prints it, and, when {@code controllerDown} says why (no cluster-version controller
     * holds its Lease during the update: {@code ControllerPresence}), a warning line saying so
     * before the progress, which does not move meanwhile.
     */
    public static Output render(
            ClusterVersion cv, boolean includeNotRecommended, Optional<String> controllerDown) {
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        var s = cv.getStatus();
        List<ClusterOperatorStatusCondition> cs = s == null ? null : s.getConditions();

        ClusterOperatorStatusCondition failing = Conditions.CLUSTER.find(cs, "Failing");
        if (failing == null) {
            err.append(
                    "warning: No current Failing info, see `oc describe clusterversion` for more"
                            + " details.\n");
        } else if (!"False".equals(failing.getStatus())) {
            out.append(failing.getType())
                    .append('=')
                    .append(nz(failing.getStatus()))
                    .append(":\n\n")
                    .append(reasonAndMessage(failing))
                    .append("\n\n");
        }
        ClusterOperatorStatusCondition progressing = Conditions.CLUSTER.find(cs, "Progressing");
        controllerDown.ifPresent(why -> out.append("warning: ").append(why).append('\n'));
        if (progressing != null && !nz(progressing.getMessage()).isEmpty()) {
            out.append(
                            "True".equals(progressing.getStatus())
                                    ? "info: An upgrade is in progress. "
                                    : "")
                    .append(progressing.getMessage())
                    .append('\n');
        } else {
            err.append(
                    "warning: No current Progressing info, see `oc describe clusterversion` for"
                            + " more details.\n");
        }
        out.append('\n');

        ClusterOperatorStatusCondition upgradeable = Conditions.CLUSTER.find(cs, "Upgradeable");
        if (upgradeable != null && "False".equals(upgradeable.getStatus())) {
            out.append("Upgradeable=False\n\n")
                    .append(reasonAndMessage(upgradeable))
                    .append("\n\n");
        }
        ClusterOperatorStatusCondition accepted = Conditions.CLUSTER.find(cs, "ReleaseAccepted");
        if (accepted != null && !"True".equals(accepted.getStatus())) {
            out.append("ReleaseAccepted=")
                    .append(nz(accepted.getStatus()))
                    .append("\n\n")
                    .append(reasonAndMessage(accepted))
                    .append("\n\n");
        }

        String channel = cv.getSpec() == null ? "" : nz(cv.getSpec().getChannel());
        if (!channel.isEmpty()) {
            String upstream = nz(cv.getSpec().getUpstream());
            out.append(
                    upstream.isEmpty()
                            ? "Upstream is unset, so the cluster will use an appropriate default.\n"
                            : "Upstream: " + upstream + "\n");
            List<String> channels =
                    s == null || s.getDesired() == null || s.getDesired().getChannels() == null
                            ? List.of()
                            : s.getDesired().getChannels();
            out.append("Channel: ")
                    .append(channel)
                    .append(
                            channels.isEmpty()
                                    ? ""
                                    : " (available channels: " + String.join(", ", channels) + ")")
                    .append('\n');
        }

        ClusterOperatorStatusCondition retrieved = Conditions.CLUSTER.find(cs, "RetrievedUpdates");
        boolean notRetrieved = retrieved != null && "False".equals(retrieved.getStatus());
        List<Release> available =
                s == null || s.getAvailableUpdates() == null
                        ? List.of()
                        : new ArrayList<>(s.getAvailableUpdates());
        if (!available.isEmpty()) {
            out.append("\nRecommended updates:\n\n");
            available.sort(ReleaseOrder.newestFirst(Release::getVersion));
            // oc: tabwriter.NewWriter(out, 14, 2, 1, ' ', 0), so short versions still get a wide
            // gap
            Tabwriter w = new Tabwriter(14, 1).write("  VERSION\tIMAGE\n");
            for (Release r : available)
                w.write("  " + nz(r.getVersion()) + "\t" + nz(r.getImage()) + "\n");
            out.append(w.flush());
            if (notRetrieved)
                err.append("warning: Cannot refresh available updates:\n")
                        .append(reasonAndMessage(retrieved))
                        .append("\n\n");
        } else if (notRetrieved) {
            err.append("warning: Cannot display available updates:\n")
                    .append(reasonAndMessage(retrieved))
                    .append("\n\n");
        } else {
            out.append(
                    "No updates available. You may still upgrade to a specific release image with"
                            + " --to-image or wait for new updates to be available.\n");
        }

        List<ConditionalUpdate> conditional =
                s == null || s.getConditionalUpdates() == null
                        ? List.of()
                        : s.getConditionalUpdates();
        boolean anyNotRecommended = conditional.stream().anyMatch(c -> notRecommended(c) != null);
        if (includeNotRecommended) {
            if (anyNotRecommended) {
                List<ConditionalUpdate> sorted = new ArrayList<>(conditional);
                sorted.sort(
                        ReleaseOrder.newestFirst(
                                c -> c.getRelease() == null ? null : c.getRelease().getVersion()));
                out.append("\nUpdates with known issues:\n");
                for (ConditionalUpdate c : sorted) {
                    Condition r = notRecommended(c);
                    if (r == null) continue;
                    Release release = c.getRelease() == null ? new Release() : c.getRelease();
                    out.append("\n  Version: ")
                            .append(nz(release.getVersion()))
                            .append("\n  Image: ")
                            .append(nz(release.getImage()))
                            .append('\n');
                    out.append("  Reason: ")
                            .append(nz(r.getReason()))
                            .append("\n  Message: ")
                            .append(indentLines(trimSpace(nz(r.getMessage()))))
                            .append('\n');
                }
            } else {
                out.append(
                        "\n"
                                + "No updates which are not recommended based on your cluster"
                                + " configuration are available.\n");
            }
        } else if (anyNotRecommended) {
            // The first not-recommended update whose status is neither True nor False (Unknown,
            // say) qualifies the note.
            String qualifier =
                    conditional.stream()
                            .map(UpgradeView::notRecommended)
                            .filter(r -> r != null && !"False".equals(r.getStatus()))
                            .findFirst()
                            .map(
                                    r ->
                                            ", or where the recommended status is "
                                                    + GoQuote.quote(nz(r.getStatus()))
                                                    + ",")
                            .orElse("");
            out.append("\nAdditional updates which are not recommended")
                    .append(qualifier)
                    .append(
                            " for your cluster configuration are available, to view those re-run"
                                    + " the command with --include-not-recommended.\n");
        }
        return new Output(out.toString(), err.toString());
    }

    /** The update's Recommended condition when it is present and not True; null otherwise. */
    private static Condition notRecommended(ConditionalUpdate c) {
        Condition r = Conditions.META.find(c.getConditions(), "Recommended");
        return r != null && !"True".equals(r.getStatus()) ? r : null;
    }
}
