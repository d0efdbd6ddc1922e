package io.upshift.clusterversion.upgrade;

import static io.upshift.clusterversion.upgrade.Cv.image;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code upgrade channel}, each case a branch of {@code Run} in openshift/oc release-4.19 {@code
 * pkg/cli/admin/upgrade/channel/channel.go}.
 */
class ChannelChangeTest {

    static Cv inStable() {
        return Cv.at("4.18.1", image('1'))
                .channel("stable-4.18", "candidate-4.18", "eus-4.18", "fast-4.18", "stable-4.18");
    }

    @Test
    void noChange() {
        assertThat(ChannelChange.decide(inStable().get(), "stable-4.18", false))
                .isEqualTo(
                        new Decision.Unchanged(
                                List.of(),
                                "info: Cluster is already in stable-4.18 (no change)\n"));
        assertThat(ChannelChange.decide(Cv.at("4.18.1", image('1')).get(), "", false))
                .isEqualTo(
                        new Decision.Unchanged(
                                List.of(), "info: Cluster channel is already clear (no change)\n"));
    }

    @Test
    void aListedChannelIsSetQuietly() {
        Decision d = ChannelChange.decide(inStable().get(), "fast-4.18", false);
        assertThat(d.warnings()).isEmpty();
        assertThat(((Decision.Patch) d).body()).isEqualTo("{\"spec\":{\"channel\":\"fast-4.18\"}}");
        assertThat(((Decision.Patch) d).done().apply(inStable().get())).isEmpty();
    }

    @Test
    void anUnlistedChannelNeedsAllowExplicitChannel() {
        Decision refused = ChannelChange.decide(inStable().get(), "stable-4.19", false);
        assertThat(((Decision.Refused) refused).message())
                .isEqualTo(
                        "the requested channel \"stable-4.19\" is not one of the available channels"
                            + " (candidate-4.18, eus-4.18, fast-4.18, stable-4.18), you must pass"
                            + " --allow-explicit-channel to continue\n");

        Decision allowed = ChannelChange.decide(inStable().get(), "stable-4.19", true);
        assertThat(allowed.warnings())
                .containsExactly(
                        "warning: The requested channel \"stable-4.19\" is not one of the available"
                            + " channels (candidate-4.18, eus-4.18, fast-4.18, stable-4.18). You"
                            + " have used --allow-explicit-channel to proceed anyway. Setting the"
                            + " update channel to \"stable-4.19\".\n");
        assertThat(((Decision.Patch) allowed).body())
                .isEqualTo("{\"spec\":{\"channel\":\"stable-4.19\"}}");
    }

    @Test
    void clearingAListedChannelNeedsAllowExplicitChannel() {
        Decision refused = ChannelChange.decide(inStable().get(), "", false);
        assertThat(((Decision.Refused) refused).message())
                .isEqualTo(
                        "You are requesting to clear the update channel. The current channel"
                                + " \"stable-4.18\" is one of the available channels, you must pass"
                                + " --allow-explicit-channel to continue\n");

        Decision allowed = ChannelChange.decide(inStable().get(), "", true);
        assertThat(allowed.warnings())
                .containsExactly(
                        "warning: Clearing channel \"stable-4.18\"; cluster will no longer request"
                                + " available update recommendations.\n");
        assertThat(((Decision.Patch) allowed).body()).isEqualTo("{\"spec\":{\"channel\":\"\"}}");

        // a channel the release does not list can be cleared without the flag
        Decision unlisted =
                ChannelChange.decide(
                        Cv.at("4.18.1", image('1')).channel("custom", "stable-4.18").get(),
                        "",
                        false);
        assertThat(unlisted.warnings())
                .containsExactly(
                        "warning: Clearing channel \"custom\"; cluster will no longer request"
                                + " available update recommendations.\n");
    }

    @Test
    void noListedChannelsAnythingGoesWithAWarning() {
        Decision d = ChannelChange.decide(Cv.at("4.18.1", image('1')).get(), "stable-4.18", false);
        assertThat(d.warnings())
                .containsExactly(
                        "warning: No channels known to be compatible with the current version"
                            + " \"4.18.1\"; unable to validate \"stable-4.18\". Setting the update"
                            + " channel to \"stable-4.18\" anyway.\n");
        assertThat(d).isInstanceOf(Decision.Patch.class);
    }
}
