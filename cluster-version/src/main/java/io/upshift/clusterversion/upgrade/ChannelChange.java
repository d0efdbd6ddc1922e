package io.upshift.clusterversion.upgrade;

import static io.upshift.base.gofmt.GoQuote.quote;
import static io.upshift.clusterversion.upgrade.UpgradeGuards.nz;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.api.json.Mappers;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code oc adm upgrade channel [CHANNEL]} ({@code pkg/cli/admin/upgrade/channel}, release-4.19):
 * set or clear {@code spec.channel}. When the current release lists the channels it belongs to
 * ({@code status.desired.channels}), a channel outside that list, or clearing a channel that is in
 * it, needs {@code --allow-explicit-channel}.
 */
public final class ChannelChange {
    private ChannelChange() {}

    /** {@code channel} is empty to clear it. */
    public static Decision decide(ClusterVersion cv, String channel, boolean allowExplicitChannel) {
        String current = cv.getSpec() == null ? "" : nz(cv.getSpec().getChannel());
        if (channel.equals(current)) {
            return new Decision.Unchanged(
                    List.of(),
                    current.isEmpty()
                            ? "info: Cluster channel is already clear (no change)\n"
                            : "info: Cluster is already in " + current + " (no change)\n");
        }
        List<String> known =
                cv.getStatus() == null
                                || cv.getStatus().getDesired() == null
                                || cv.getStatus().getDesired().getChannels() == null
                        ? List.of()
                        : cv.getStatus().getDesired().getChannels();
        List<String> warnings = new ArrayList<>();
        if (!known.isEmpty()) {
            String listed = String.join(", ", known);
            if (channel.isEmpty()) {
                if (known.contains(current) && !allowExplicitChannel) {
                    return new Decision.Refused(
                            warnings,
                            "You are requesting to clear the update channel. The current channel "
                                    + quote(current)
                                    + " is one of the available channels, you must pass"
                                    + " --allow-explicit-channel to continue\n");
                }
            } else if (!known.contains(channel)) {
                if (!allowExplicitChannel) {
                    return new Decision.Refused(
                            warnings,
                            "the requested channel "
                                    + quote(channel)
                                    + " is not one of the available channels ("
                                    + listed
                                    + "), you must pass --allow-explicit-channel to continue\n");
                }
                warnings.add(
                        "warning: The requested channel "
                                + quote(channel)
                                + " is not one of the available channels ("
                                + listed
                                + "). You have used --allow-explicit-channel to proceed anyway."
                                + " Setting the update channel to "
                                + quote(channel)
                                + ".\n");
            }
        } else if (!channel.isEmpty()) {
            String version =
                    cv.getStatus() == null || cv.getStatus().getDesired() == null
                            ? ""
                            : nz(cv.getStatus().getDesired().getVersion());
            warnings.add(
                    "warning: No channels known to be compatible with the current version "
                            + quote(version)
                            + "; unable to validate "
                            + quote(channel)
                            + ". Setting the update channel to "
                            + quote(channel)
                            + " anyway.\n");
        }
        if (channel.isEmpty()) {
            warnings.add(
                    "warning: Clearing channel "
                            + quote(current)
                            + "; cluster will no longer request available update"
                            + " recommendations.\n");
        }
        ObjectNode body = Mappers.JSON.createObjectNode();
        body.putObject("spec").put("channel", channel);
        return new Decision.Patch(
                warnings, body.toString(), "unable to set channel", written -> "");
    }
}
