package io.upshift.clusterversion.upgrade;

import static io.upshift.clusterversion.upgrade.Cv.image;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.api.json.Mappers;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code upgrade --to/--to-image/--to-latest/--to-multi-arch/--clear} against oc's {@code Complete}
 * and {@code Run} in openshift/oc release-4.19 {@code pkg/cli/admin/upgrade/upgrade.go}
 * (acceptRisks kept as on oc main): each expected message is written from the format string of the
 * branch named on the test.
 */
class UpgradeRequestTest {

    static UpgradeFlags to(String version) {
        return new UpgradeFlags(version, "", false, false, false, false, false, false, false);
    }

    static UpgradeFlags toImage(String image) {
        return new UpgradeFlags("", image, false, false, false, false, false, false, false);
    }

    static UpgradeFlags flags(
            String to,
            String toImage,
            boolean toLatest,
            boolean allowExplicit,
            boolean allowNotRecommended) {
        return new UpgradeFlags(
                to,
                toImage,
                toLatest,
                false,
                false,
                false,
                allowExplicit,
                false,
                allowNotRecommended);
    }

    static Cv settled() {
        return Cv.at("4.18.1", image('1'))
                .condition("Failing", "False", "", "")
                .condition("Progressing", "False", "", "Cluster version is 4.18.1")
                .condition("RetrievedUpdates", "True", "", "")
                .available("4.18.2", image('2'))
                .available("4.18.10", image('a'))
                .conditional(
                        "4.19.0",
                        image('b'),
                        "False",
                        "EtcdSlow",
                        "Etcd may be slow.\nhttps://issues.example/ETCD-1")
                .conditional(
                        "4.18.11", image('c'), "False", "NodeReboots", "Nodes may reboot twice.");
    }

    static JsonNode desiredUpdate(Decision d) throws Exception {
        assertThat(d).isInstanceOf(Decision.Patch.class);
        return Mappers.JSON
                .readTree(((Decision.Patch) d).body())
                .path("spec")
                .path("desiredUpdate");
    }

    static String done(Decision d, ClusterVersion written) {
        return ((Decision.Patch) d).done().apply(written);
    }

    static String refusal(Decision d) {
        assertThat(d).isInstanceOf(Decision.Refused.class);
        return ((Decision.Refused) d).message();
    }

    // Complete: the flags alone

    @Test
    void flagsThatDoNotGoTogether() {
        assertThat(
                        UpgradeRequest.check(
                                        new UpgradeFlags(
                                                "4.18.2", "", false, false, true, false, false,
                                                false, false))
                                .refusal())
                .contains("--clear may not be specified with any other flags");
        assertThat(
                        UpgradeRequest.check(
                                        new UpgradeFlags(
                                                "", "", true, true, false, false, false, false,
                                                false))
                                .refusal())
                .contains("--to-multi-arch may not be used with --to, --to-image, or --to-latest");
        assertThat(
                        UpgradeRequest.check(
                                        new UpgradeFlags(
                                                "4.18.2",
                                                image('2'),
                                                false,
                                                false,
                                                false,
                                                false,
                                                false,
                                                false,
                                                false))
                                .refusal())
                .contains("only one of --to or --to-image may be provided");
        // --to with --to-latest is not refused: --to-latest wins when anything is left to pick (see
        // below).
        assertThat(UpgradeRequest.check(flags("4.18.2", "", true, false, false)).refusal())
                .isEmpty();
        assertThat(
                        UpgradeRequest.check(
                                        new UpgradeFlags(
                                                "", "", false, false, true, true, false, false,
                                                false))
                                .refusal())
                .isEmpty();
    }

    /** "--to must be a semantic version (e.g. ...): %v" with blang/semver's Parse error. */
    @Test
    void toMustBeASemanticVersion() {
        assertThat(UpgradeRequest.check(to("4.18")).refusal())
                .contains(
                        "--to must be a semantic version (e.g. 4.0.1 or 4.1.0-nightly-20181104): No"
                                + " Major.Minor.Patch elements found");
        assertThat(UpgradeRequest.check(to("v4.18.2")).refusal())
                .contains(
                        "--to must be a semantic version (e.g. 4.0.1 or 4.1.0-nightly-20181104):"
                                + " Invalid character(s) found in major number \"v4\"");
        assertThat(UpgradeRequest.check(to("4.18.02")).refusal())
                .contains(
                        "--to must be a semantic version (e.g. 4.0.1 or 4.1.0-nightly-20181104):"
                                + " Patch number must not contain leading zeroes \"02\"");
        assertThat(UpgradeRequest.check(to("4.19.0-rc.1")).refusal()).isEmpty();
    }

    /**
     * The --to-image checks: parse (library-go's messages), registry or repository, tag or digest,
     * by-tag only with --force.
     */
    @Test
    void toImageMustBeAByDigestPullSpec() {
        assertThat(UpgradeRequest.check(toImage("quay.example/ocp/release@sha256:abc")).refusal())
                .contains("--to-image must be a valid image pull spec: invalid reference format");
        assertThat(UpgradeRequest.check(toImage("quay.example/OCP/release:4.18.2")).refusal())
                .contains(
                        "--to-image must be a valid image pull spec: repository name must be"
                                + " lowercase");
        assertThat(UpgradeRequest.check(toImage("release:4.18.2")).refusal())
                .contains(
                        "--to-image must be a valid image pull spec: no registry or repository"
                                + " specified");
        assertThat(UpgradeRequest.check(toImage("quay.example/ocp/release")).refusal())
                .contains("--to-image must be a valid image pull spec: no tag or digest specified");
        assertThat(UpgradeRequest.check(toImage("quay.example/ocp/release:4.18.2")).refusal())
                .contains(
                        "--to-image must be a by-digest pull spec, unless --force is also set,"
                            + " because release images that are not accessed via digest cannot be"
                            + " verified by the cluster.  Even when --force is set, using tags is"
                            + " not recommended, although we continue to allow it for backwards"
                            + " compatibility");
        UpgradeRequest.FlagCheck forced =
                UpgradeRequest.check(
                        new UpgradeFlags(
                                "",
                                "quay.example/ocp/release:4.18.2",
                                false,
                                false,
                                false,
                                true,
                                false,
                                false,
                                false));
        assertThat(forced.refusal()).isEmpty();
        assertThat(forced.warnings())
                .containsExactly(
                        "warning: Using by-tag pull specs is dangerous, and while we still allow it"
                            + " in combination with --force for backward compatibility, it would be"
                            + " much safer to pass a by-digest pull spec instead\n");
    }

    // Run: picking the target

    @Test
    void toAnAvailableVersion() throws Exception {
        Decision d = UpgradeRequest.decide(to("4.18.2"), settled().get());
        assertThat(d.warnings()).isEmpty();
        assertThat(desiredUpdate(d).toString())
                .isEqualTo(
                        "{\"architecture\":\"\",\"version\":\"4.18.2\",\"image\":\""
                                + image('2')
                                + "\",\"force\":false}");
        assertThat(done(d, settled().get())).isEqualTo("Requested update to 4.18.2\n");
    }

    @Test
    void alreadyThere() {
        assertThat(UpgradeRequest.decide(to("4.18.1"), settled().get()))
                .isEqualTo(
                        new Decision.Unchanged(
                                List.of(), "info: Cluster is already at version 4.18.1\n"));
        assertThat(UpgradeRequest.decide(toImage(image('1')), settled().get()))
                .isEqualTo(
                        new Decision.Unchanged(
                                List.of(), "info: Cluster is already at " + image('1') + "\n"));
    }

    /**
     * A digest match takes the available update's version and keeps the pull spec as given (a
     * mirror, say).
     */
    @Test
    void toImageMatchesByDigest() throws Exception {
        String mirrored = "mirror.example:5000/ocp4/release@sha256:" + "a".repeat(64);
        Decision d = UpgradeRequest.decide(toImage(mirrored), settled().get());
        assertThat(desiredUpdate(d).path("version").asText()).isEqualTo("4.18.10");
        assertThat(desiredUpdate(d).path("image").asText()).isEqualTo(mirrored);
        assertThat(done(d, settled().get())).isEqualTo("Requested update to 4.18.10\n");
    }

    /**
     * "the update %s is not one of the recommended updates, but is available as a conditional
     * update. ..."
     */
    @Test
    void aConditionalUpdateNeedsAllowNotRecommended() throws Exception {
        assertThat(refusal(UpgradeRequest.decide(to("4.19.0"), settled().get())))
                .isEqualTo(
                        "the update 4.19.0 is not one of the recommended updates, but is available"
                            + " as a conditional update. To accept the Recommended=False risk and"
                            + " to proceed with update use --allow-not-recommended.\n"
                            + "  Reason: EtcdSlow\n"
                            + "  Message: Etcd may be slow.\n"
                            + "  https://issues.example/ETCD-1\n");

        Decision allowed =
                UpgradeRequest.decide(flags("4.19.0", "", false, false, true), settled().get());
        assertThat(allowed.warnings())
                .containsExactly(
                        "warning: with --allow-not-recommended you have accepted the risks with"
                            + " 4.19.0 and bypassed Recommended=False EtcdSlow: Etcd may be slow.\n"
                            + "https://issues.example/ETCD-1\n");
        assertThat(desiredUpdate(allowed).path("image").asText()).isEqualTo(image('b'));
    }

    /**
     * "the update is not one of the possible targets: %s. specify %s." with the available versions
     * newest first.
     */
    @Test
    void aVersionOutsideTheUpdates() {
        assertThat(refusal(UpgradeRequest.decide(to("4.20.0"), settled().get())))
                .isEqualTo(
                        "the update is not one of the possible targets: 4.18.10, 4.18.2. specify"
                                + " --to-image to continue with the update.");
        // with --allow-not-recommended the conditional updates are possible targets too
        assertThat(
                        refusal(
                                UpgradeRequest.decide(
                                        flags("4.20.0", "", false, false, true), settled().get())))
                .isEqualTo(
                        "the update is not one of the possible targets: 4.19.0, 4.18.11, 4.18.10,"
                                + " 4.18.2. specify --to-image to continue with the update.");
    }

    /**
     * An image outside the updates needs --allow-explicit-upgrade; with it, a warning and a request
     * by image alone.
     */
    @Test
    void anImageOutsideTheUpdates() throws Exception {
        String other = "quay.example/ocp/release@sha256:" + "d".repeat(64);
        assertThat(refusal(UpgradeRequest.decide(toImage(other), settled().get())))
                .isEqualTo(
                        "the update is not one of the possible targets: 4.18.10, 4.18.2. specify"
                                + " --allow-explicit-upgrade to continue with the update.");

        Decision d = UpgradeRequest.decide(flags("", other, false, true, false), settled().get());
        assertThat(d.warnings())
                .containsExactly(
                        "warning: The requested upgrade image is not one of the available updates."
                            + " You have used --allow-explicit-upgrade for the update to proceed"
                            + " anyway\n");
        assertThat(desiredUpdate(d).toString())
                .isEqualTo(
                        "{\"architecture\":\"\",\"version\":\"\",\"image\":\""
                                + other
                                + "\",\"force\":false}");
        assertThat(done(d, settled().get()))
                .isEqualTo("Requested update to release image " + other + "\n");
    }

    @Test
    void toLatest() throws Exception {
        assertThat(
                        desiredUpdate(
                                        UpgradeRequest.decide(
                                                flags("", "", true, false, false), settled().get()))
                                .path("version")
                                .asText())
                .isEqualTo("4.18.10");

        // with --allow-not-recommended the newest conditional update is the latest, with the same
        // warning as --to
        Decision risky = UpgradeRequest.decide(flags("", "", true, false, true), settled().get());
        assertThat(desiredUpdate(risky).path("version").asText()).isEqualTo("4.19.0");
        assertThat(risky.warnings())
                .containsExactly(
                        "warning: with --allow-not-recommended you have accepted the risks with"
                            + " 4.19.0 and bypassed Recommended=False EtcdSlow: Etcd may be slow.\n"
                            + "https://issues.example/ETCD-1\n");

        // --to and --to-latest: the targets before the match are the candidates, and the newest of
        // them wins
        assertThat(
                        desiredUpdate(
                                        UpgradeRequest.decide(
                                                flags("4.18.10", "", true, false, false),
                                                settled().get()))
                                .path("version")
                                .asText())
                .isEqualTo("4.18.2");

        // nothing newer: an info line, no write
        ClusterVersion none =
                Cv.at("4.18.10", image('a')).condition("RetrievedUpdates", "True", "", "").get();
        assertThat(UpgradeRequest.decide(flags("", "", true, false, false), none))
                .isEqualTo(
                        new Decision.Unchanged(
                                List.of(),
                                "info: Cluster is already at the latest available version"
                                        + " 4.18.10\n"));
    }

    /** The refusals when there is nothing to pick from, and when updates could not be retrieved. */
    @Test
    void noUpdatesToPickFrom() {
        ClusterVersion none = Cv.at("4.18.10", image('a')).get();
        assertThat(refusal(UpgradeRequest.decide(to("4.18.11"), none)))
                .isEqualTo(
                        "no recommended updates, specify --to-image to continue with the update or"
                                + " wait for new updates to be available.");
        assertThat(refusal(UpgradeRequest.decide(flags("", "", true, false, true), none)))
                .isEqualTo(
                        "no recommended or conditional updates, specify --to-image to continue with"
                                + " an update or wait for new updates to be available.");

        ClusterVersion offline =
                Cv.at("4.18.10", image('a'))
                        .condition(
                                "RetrievedUpdates",
                                "False",
                                "RemoteFailed",
                                "Unable to retrieve available updates: Get"
                                        + " \"https://updates.example/graph\": EOF")
                        .get();
        assertThat(refusal(UpgradeRequest.decide(toImage(image('b')), offline)))
                .isEqualTo(
                        """
                        cannot refresh available updates:
                          Reason: RemoteFailed
                          Message: Unable to retrieve available updates: Get "https://updates.example/graph": EOF

                        specify --allow-explicit-upgrade to continue with the update.\
                        """);
    }

    // Run: guards, force, what is written

    /**
     * checkForUpgrade: "%s\n\nIf you want to upgrade anyway, use --allow-upgrade-with-warnings.",
     * or a warning with the flag.
     */
    @Test
    void anUpdateInProgressIsRefusedUnlessAllowed() throws Exception {
        ClusterVersion updating =
                Cv.at("4.18.2", image('2'))
                        .condition(
                                "Progressing",
                                "True",
                                "",
                                "Working towards 4.18.2: 106 of 840 done (12% complete)")
                        .available("4.18.10", image('a'))
                        .get();
        assertThat(refusal(UpgradeRequest.decide(to("4.18.10"), updating)))
                .isEqualTo(
                        """
                        the cluster is already upgrading:

                          Reason:\s
                          Message: Working towards 4.18.2: 106 of 840 done (12% complete)

                        If you want to upgrade anyway, use --allow-upgrade-with-warnings.\
                        """);

        Decision allowed =
                UpgradeRequest.decide(
                        new UpgradeFlags(
                                "4.18.10", "", false, false, false, true, false, true, false),
                        updating);
        assertThat(allowed.warnings())
                .containsExactly(
                        UpgradeRequest.FORCE_WARNING,
                        "warning: --allow-upgrade-with-warnings is bypassing: the cluster is"
                                + " already upgrading:\n\n"
                                + "  Reason: \n"
                                + "  Message: Working towards 4.18.2: 106 of 840 done (12%"
                                + " complete)\n");
        assertThat(desiredUpdate(allowed).path("force").asBoolean()).isTrue();
    }

    /** main's --to keeps spec.desiredUpdate.acceptRisks in what it writes. */
    @Test
    void acceptedRisksAreWrittenBack() throws Exception {
        ClusterVersion cv =
                settled().desiredUpdate("4.18.1", image('1'), List.of("EtcdSlow")).get();
        assertThat(
                        desiredUpdate(UpgradeRequest.decide(to("4.18.2"), cv))
                                .path("acceptRisks")
                                .toString())
                .isEqualTo("[{\"name\":\"EtcdSlow\"}]");
    }

    // Run: --clear

    @Test
    void clear() throws Exception {
        assertThat(UpgradeRequest.decide(clearFlags(), settled().get()))
                .isEqualTo(new Decision.Unchanged(List.of(), "info: No update in progress\n"));

        ClusterVersion requested = settled().desiredUpdate("4.18.2", image('2'), null).get();
        Decision d = UpgradeRequest.decide(clearFlags(), requested);
        assertThat(((Decision.Patch) d).body()).isEqualTo("{\"spec\":{\"desiredUpdate\":null}}");
        // updateIsEquivalent(original, updated.Status.Desired): not yet started, so cancelled
        assertThat(done(d, requested)).isEqualTo("Cancelled requested upgrade to 4.18.2\n");
        // already the running release: the field is cleared, the cluster stays
        ClusterVersion running = settled().desiredUpdate("4.18.1", image('1'), null).get();
        assertThat(done(UpgradeRequest.decide(clearFlags(), running), running))
                .isEqualTo("Cleared the update field, still at 4.18.1\n");
    }

    /** oc main: --clear keeps the accepted risks, writing an otherwise empty update. */
    @Test
    void clearKeepsAcceptedRisks() throws Exception {
        ClusterVersion cv =
                settled()
                        .desiredUpdate("4.19.0", image('b'), List.of("EtcdSlow", "NodeReboots"))
                        .get();
        assertThat(desiredUpdate(UpgradeRequest.decide(clearFlags(), cv)).toString())
                .isEqualTo(
                        "{\"architecture\":\"\",\"version\":\"\",\"image\":\"\",\"force\":false,\"acceptRisks\":[{\"name\":\"EtcdSlow\"},{\"name\":\"NodeReboots\"}]}");
    }

    // Run: --to-multi-arch

    @Test
    void toMultiArch() throws Exception {
        UpgradeFlags multi =
                new UpgradeFlags("", "", false, true, false, false, false, false, false);
        Decision d = UpgradeRequest.decide(multi, settled().get());
        assertThat(desiredUpdate(d).toString())
                .isEqualTo(
                        "{\"architecture\":\"Multi\",\"version\":\"4.18.1\",\"image\":\"\",\"force\":false}");
        assertThat(done(d, settled().get()))
                .isEqualTo("Requested update to multi cluster architecture\n");

        ClusterVersion again =
                settled().desiredUpdate("4.18.1", "", null).architecture("Multi").get();
        assertThat(refusal(UpgradeRequest.decide(multi, again)))
                .isEqualTo("info: Update to multi cluster architecture has already been requested");
    }

    private static UpgradeFlags clearFlags() {
        return new UpgradeFlags("", "", false, false, true, false, false, false, false);
    }
}
