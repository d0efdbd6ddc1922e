package io.upshift.core.upgrade;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.upshift.core.render.Tabwriter;
import io.upshift.core.conditions.Conditions;
import io.upshift.core.version.SemVer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/** What bare {@code upshift upgrade} prints, as {@code oc adm upgrade} does: the update state and the recommended updates. */
public final class UpgradeView {

    /** stdout and stderr text. */
    public record Output(String out, String err) {
    }

    private UpgradeView() {
    }

    public static Output render(ClusterVersion cv, boolean includeNotRecommended) {
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        var s = cv.getStatus();
        List<ClusterOperatorStatusCondition> cs = s == null || s.getConditions() == null ? List.of() : s.getConditions();
        ClusterOperatorStatusCondition failing = Conditions.CLUSTER.find(cs, "Failing");
        if (failing == null) err.append("warning: No current Failing info, see `upshift status` for more details.\n");
        else if (!"False".equals(failing.getStatus())) block(out, failing.getType() + "=" + failing.getStatus() + ":", failing.getReason(), failing.getMessage());
        ClusterOperatorStatusCondition progressing = Conditions.CLUSTER.find(cs, "Progressing");
        if (progressing != null && progressing.getMessage() != null && !progressing.getMessage().isEmpty()) {
            out.append("True".equals(progressing.getStatus()) ? "info: An upgrade is in progress. " + progressing.getMessage() : progressing.getMessage()).append('\n');
        } else {
            err.append("warning: No current Progressing info, see `upshift status` for more details.\n");
        }
        out.append('\n');
        ClusterOperatorStatusCondition upgradeable = Conditions.CLUSTER.find(cs, "Upgradeable");
        if (upgradeable != null && "False".equals(upgradeable.getStatus())) block(out, "Upgradeable=False", upgradeable.getReason(), upgradeable.getMessage());
        ClusterOperatorStatusCondition accepted = Conditions.CLUSTER.find(cs, "ReleaseAccepted");
        if (accepted != null && !"True".equals(accepted.getStatus())) block(out, "ReleaseAccepted=" + accepted.getStatus(), accepted.getReason(), accepted.getMessage());
        String channel = cv.getSpec() == null ? null : cv.getSpec().getChannel();
        if (channel != null && !channel.isEmpty()) {
            String upstream = cv.getSpec().getUpstream();
            out.append(upstream == null || upstream.isEmpty() ? "Upstream is unset, so the cluster will use an appropriate default.\n" : "Upstream: " + upstream + "\n");
            List<String> channels = s == null || s.getDesired() == null || s.getDesired().getChannels() == null ? List.of() : s.getDesired().getChannels();
            out.append("Channel: ").append(channel).append(channels.isEmpty() ? "" : " (available channels: " + String.join(", ", channels) + ")").append('\n');
        }
        ClusterOperatorStatusCondition retrieved = Conditions.CLUSTER.find(cs, "RetrievedUpdates");
        List<Release> available = s == null || s.getAvailableUpdates() == null ? List.of() : new ArrayList<>(s.getAvailableUpdates());
        if (!available.isEmpty()) {
            out.append("\nRecommended updates:\n\n");
            available.sort(newestFirst(Release::getVersion));
            Tabwriter w = new Tabwriter(14, 1).write("  VERSION\tIMAGE\n");
            for (Release r : available) w.write("  " + r.getVersion() + "\t" + r.getImage() + "\n");
            out.append(w.flush());
            if (retrieved != null && "False".equals(retrieved.getStatus())) {
                err.append("warning: Cannot refresh available updates:\n  Reason: ").append(retrieved.getReason()).append("\n  Message: ").append(indent(retrieved.getMessage())).append("\n\n");
            }
        } else if (retrieved != null && "False".equals(retrieved.getStatus())) {
            err.append("warning: Cannot display available updates:\n  Reason: ").append(retrieved.getReason()).append("\n  Message: ").append(indent(retrieved.getMessage())).append("\n\n");
        } else {
            out.append("No updates available. You may still upgrade to a specific release image with --to-image or wait for new updates to be available.\n");
        }
        List<ConditionalUpdate> conditional = s == null || s.getConditionalUpdates() == null ? List.of() : new ArrayList<>(s.getConditionalUpdates());
        List<ConditionalUpdate> notRecommended = conditional.stream().filter(c -> recommended(c) != null && !"True".equals(recommended(c).getStatus())).toList();
        if (includeNotRecommended) {
            if (notRecommended.isEmpty()) {
                out.append("\nNo updates which are not recommended based on your cluster configuration are available.\n");
            } else {
                out.append("\nUpdates with known issues:\n");
                List<ConditionalUpdate> sorted = new ArrayList<>(notRecommended);
                sorted.sort(newestFirst(c -> c.getRelease().getVersion()));
                for (ConditionalUpdate c : sorted) {
                    Condition r = recommended(c);
                    out.append("\n  Version: ").append(c.getRelease().getVersion()).append("\n  Image: ").append(c.getRelease().getImage()).append('\n');
                    out.append("  Reason: ").append(r.getReason()).append("\n  Message: ").append(indent(r.getMessage().strip())).append('\n');
                }
            }
        } else if (!notRecommended.isEmpty()) {
            String qualifier = notRecommended.stream().map(UpgradeView::recommended).filter(r -> !"False".equals(r.getStatus())).findFirst()
                    .map(r -> ", or where the recommended status is \"" + r.getStatus() + "\",").orElse("");
            out.append("\nAdditional updates which are not recommended").append(qualifier)
                    .append(" for your cluster configuration are available, to view those re-run the command with --include-not-recommended.\n");
        }
        return new Output(out.toString(), err.toString());
    }

    static Condition recommended(ConditionalUpdate c) {
        return Conditions.META.find(c.getConditions(), "Recommended");
    }

    static <T> Comparator<T> newestFirst(java.util.function.Function<T, String> version) {
        return (a, b) -> {
            String va = version.apply(a), vb = version.apply(b);
            if (SemVer.isValid(va) && SemVer.isValid(vb)) return SemVer.parse(vb).compareTo(SemVer.parse(va));
            return vb.compareTo(va);
        };
    }

    private static void block(StringBuilder out, String head, String reason, String message) {
        out.append(head).append("\n\n  Reason: ").append(reason).append("\n  Message: ").append(indent(message)).append("\n\n");
    }

    private static String indent(String s) {
        return s == null ? "" : s.replace("\n", "\n  ");
    }
}
