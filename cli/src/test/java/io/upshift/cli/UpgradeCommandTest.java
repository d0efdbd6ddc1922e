package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistoryBuilder;
import io.upshift.api.schema.CrdSchema;
import io.upshift.testkit.EmbeddedApiServer;
import io.upshift.testkit.RequestLog;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift upgrade} against an API server: the view on stdout and stderr, the merge patches
 * it writes and the refusals, as {@code oc adm upgrade} (openshift/oc release-4.19 {@code
 * pkg/cli/admin/upgrade/upgrade.go}); oc's "error: " line is ours as "upshift: " with exit code 2.
 * The decisions themselves are tested in core.upgrade. The API server is the project's stricter
 * mock, whose merge patches are RFC 7386's (fabric8's mock appends lists).
 */
@Tag("e2e")
class UpgradeCommandTest {
    static final String REPO = "quay.example/ocp/release@sha256:";
    static final String T = "2025-03-01T10:00:00Z";

    EmbeddedApiServer server;

    KubernetesClient client;

    @TempDir Path dir;

    Path kubeconfig;

    static String image(char c) {
        return REPO + String.valueOf(c).repeat(64);
    }

    CliRun.Result run(String... args) {
        return CliRun.run(
                Stream.concat(Stream.of(args), Stream.of("--kubeconfig", kubeconfig.toString()))
                        .toArray(String[]::new));
    }

    @BeforeEach
    void cluster() throws Exception {
        server = new EmbeddedApiServer();
        client = server.client();
        ClusterVersion cv =
                new ClusterVersionBuilder()
                        .withNewMetadata()
                        .withName("version")
                        .endMetadata()
                        .withNewSpec()
                        .withClusterID("0b9c6a2e-6f5a-4c83-9a53-9c1c2f0b7e11")
                        .withChannel("stable-4.18")
                        .endSpec()
                        .withNewStatus()
                        .withObservedGeneration(1L)
                        .withVersionHash("vh-4.18.1")
                        .addNewCondition()
                        .withType("Failing")
                        .withStatus("False")
                        .withLastTransitionTime(T)
                        .endCondition()
                        .addNewCondition()
                        .withType("Progressing")
                        .withStatus("False")
                        .withMessage("Cluster version is 4.18.1")
                        .withLastTransitionTime(T)
                        .endCondition()
                        .withNewDesired()
                        .withVersion("4.18.1")
                        .withImage(image('1'))
                        .withChannels("fast-4.18", "stable-4.18")
                        .endDesired()
                        .addNewAvailableUpdate()
                        .withVersion("4.18.2")
                        .withImage(image('2'))
                        .endAvailableUpdate()
                        .addNewAvailableUpdate()
                        .withVersion("4.18.10")
                        .withImage(image('a'))
                        .endAvailableUpdate()
                        .addNewConditionalUpdate()
                        .withNewRelease()
                        .withVersion("4.19.0")
                        .withImage(image('9'))
                        .endRelease()
                        .addNewRisk()
                        .withName("SlowDisks")
                        .withUrl("https://example.com/slow")
                        .withMessage("Disks may be slow.")
                        .addNewMatchingRule()
                        .withType("Always")
                        .endMatchingRule()
                        .endRisk()
                        .addToConditions(
                                new ConditionBuilder()
                                        .withType("Recommended")
                                        .withStatus("False")
                                        .withReason("SlowDisks")
                                        .withMessage("Disks may be slow. https://example.com/slow")
                                        .withLastTransitionTime(T)
                                        .build())
                        .endConditionalUpdate()
                        .addNewHistory()
                        .withState("Completed")
                        .withVersion("4.18.1")
                        .withImage(image('1'))
                        .withVerified(true)
                        .withStartedTime(T)
                        .withCompletionTime(T)
                        .endHistory()
                        .endStatus()
                        .build();
        client.resources(ClusterVersion.class).resource(cv).create();
        kubeconfig =
                Files.writeString(
                        dir.resolve("kubeconfig"), server.kubeconfig()); // the administrator's
    }

    @AfterEach
    void stop() {
        server.close();
    }

    /** The commands' writes: merge patches of the ClusterVersion, nothing else. */
    List<RequestLog.Request> writes() {
        return server.requests().matching(RequestLog.Request::isWrite).stream()
                .filter(r -> !r.userAgent().equals("upshift-test"))
                .toList();
    }

    ClusterVersion cv() {
        return client.resources(ClusterVersion.class).withName("version").get();
    }

    /** What the command wrote must be what the ClusterVersion CRD takes. */
    void assertValid(ClusterVersion cv) {
        assertThat(CrdSchema.bundled("clusterversions.config.openshift.io", "v1").violations(cv))
                .isEmpty();
    }

    /**
     * The bare view's text, derived from upgrade.go's default case (see UpgradeViewTest for the
     * branches).
     */
    @Test
    void viewIsOcsText() {
        CliRun.Result r = run("upgrade");
        assertThat(r.code()).isZero();
        assertThat(r.out())
                .isEqualTo(
                        """
                        Cluster version is 4.18.1

                        Upstream is unset, so the cluster will use an appropriate default.
                        Channel: stable-4.18 (available channels: fast-4.18, stable-4.18)

                        Recommended updates:

                          VERSION     IMAGE
                          4.18.10     quay.example/ocp/release@sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa
                          4.18.2      quay.example/ocp/release@sha256:2222222222222222222222222222222222222222222222222222222222222222

                        Additional updates which are not recommended for your cluster configuration are available, to view those re-run the command with --include-not-recommended.
                        """);
        assertThat(r.err()).isEmpty();
        assertThat(run("upgrade", "--include-not-recommended").out())
                .endsWith(
                        """

                        Updates with known issues:

                          Version: 4.19.0
                          Image: quay.example/ocp/release@sha256:9999999999999999999999999999999999999999999999999999999999999999
                          Reason: SlowDisks
                          Message: Disks may be slow. https://example.com/slow
                        """);
    }

    @Test
    void toWritesAMergePatchOfDesiredUpdate() {
        CliRun.Result r = run("upgrade", "--to", "4.18.2");
        assertThat(r.code()).isZero();
        assertThat(r.out()).isEqualTo("Requested update to 4.18.2\n");
        ClusterVersion cv = cv();
        assertThat(cv.getSpec().getDesiredUpdate().getVersion()).isEqualTo("4.18.2");
        assertThat(cv.getSpec().getDesiredUpdate().getImage()).isEqualTo(image('2'));
        assertThat(cv.getSpec().getDesiredUpdate().getForce()).isFalse();
        assertThat(cv.getSpec().getChannel()).isEqualTo("stable-4.18");
        assertValid(cv);
        assertThat(writes())
                .extracting(RequestLog.Request::method, RequestLog.Request::path)
                .containsExactly(
                        Tuple.tuple(
                                "PATCH", "/apis/config.openshift.io/v1/clusterversions/version"));

        // Go's boolean flags take =true (oc's own example); --to-latest picks the newest available
        // update
        assertThat(run("upgrade", "--to-latest=true").out())
                .isEqualTo("Requested update to 4.18.10\n");
        assertThat(cv().getSpec().getDesiredUpdate().getVersion()).isEqualTo("4.18.10");
    }

    @Test
    void refusalsAreOcsErrorsWithExitCode2() {
        CliRun.Result risky = run("upgrade", "--to", "4.19.0");
        assertThat(risky.code()).isEqualTo(2);
        assertThat(risky.out()).isEmpty();
        assertThat(risky.err())
                .isEqualTo(
                        "upshift: the update 4.19.0 is not one of the recommended updates, but is"
                            + " available as a conditional update. To accept the Recommended=False"
                            + " risk and to proceed with update use --allow-not-recommended.\n"
                            + "  Reason: SlowDisks\n"
                            + "  Message: Disks may be slow. https://example.com/slow\n");
        assertThat(cv().getSpec().getDesiredUpdate()).isNull();

        CliRun.Result allowed = run("upgrade", "--to", "4.19.0", "--allow-not-recommended");
        assertThat(allowed.err())
                .isEqualTo(
                        "warning: with --allow-not-recommended you have accepted the risks with"
                            + " 4.19.0 and bypassed Recommended=False SlowDisks: Disks may be slow."
                            + " https://example.com/slow\n");
        assertThat(allowed.out()).isEqualTo("Requested update to 4.19.0\n");

        assertThat(run("upgrade", "--to", "4.18.2", "--clear").err())
                .isEqualTo("upshift: --clear may not be specified with any other flags\n");
        assertThat(run("upgrade", "--to-image", "quay.example/ocp/release:4.18.3").err())
                .startsWith("upshift: --to-image must be a by-digest pull spec,");
        CliRun.Result extra = run("upgrade", "4.18.2");
        assertThat(extra.code()).isEqualTo(2);
        assertThat(extra.err())
                .isEqualTo(
                        "upshift: unknown command \"4.18.2\"\n"
                                + "See 'upshift upgrade -h' for help and examples\n");
    }

    /**
     * The client-side guards: refused with oc's text, or with --allow-upgrade-with-warnings warned
     * about on stderr.
     */
    @Test
    void anUpdateInProgressNeedsAllowUpgradeWithWarnings() {
        ClusterVersion cv = cv();
        cv.getStatus().getConditions().get(1).setStatus("True");
        cv.getStatus().getConditions().get(1).setReason("ClusterOperatorUpdating");
        client.resources(ClusterVersion.class).resource(cv).updateStatus();

        CliRun.Result refused = run("upgrade", "--to", "4.18.2");
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err())
                .isEqualTo(
                        """
                        upshift: the cluster is already upgrading:

                          Reason: ClusterOperatorUpdating
                          Message: Cluster version is 4.18.1

                        If you want to upgrade anyway, use --allow-upgrade-with-warnings.
                        """);
        CliRun.Result allowed = run("upgrade", "--to", "4.18.2", "--allow-upgrade-with-warnings");
        assertThat(allowed.code()).isZero();
        assertThat(allowed.err())
                .startsWith(
                        "warning: --allow-upgrade-with-warnings is bypassing: the cluster is"
                                + " already upgrading:\n");
    }

    /** --clear takes the update back and keeps the accepted risks (oc main). */
    @Test
    void clearKeepsAcceptedRisks() {
        assertThat(run("upgrade", "--clear").out()).isEqualTo("info: No update in progress\n");
        assertThat(run("upgrade", "accept", "SlowDisks").out())
                .isEqualTo("info: Accept risks are [SlowDisks]\n");
        assertThat(run("upgrade", "--to", "4.19.0", "--allow-not-recommended").code()).isZero();
        assertThat(cv().getSpec().getDesiredUpdate().getAdditionalProperties().get("acceptRisks"))
                .isEqualTo(List.of(Map.of("name", "SlowDisks")));

        CliRun.Result cleared = run("upgrade", "--clear");
        assertThat(cleared.out()).isEqualTo("Cancelled requested upgrade to 4.19.0\n");
        ClusterVersion cv = cv();
        assertThat(cv.getSpec().getDesiredUpdate().getVersion()).isEmpty();
        assertThat(cv.getSpec().getDesiredUpdate().getImage()).isEmpty();
        assertThat(cv.getSpec().getDesiredUpdate().getAdditionalProperties().get("acceptRisks"))
                .isEqualTo(List.of(Map.of("name", "SlowDisks")));
        assertValid(cv);
    }

    @Test
    void accept() {
        assertThat(run("upgrade", "accept", "RiskB,RiskA").out())
                .isEqualTo("info: Accept risks are [RiskA, RiskB]\n");
        assertThat(run("upgrade", "accept", "RiskC,RiskA-").out())
                .isEqualTo("info: Accept risks are [RiskB, RiskC]\n");
        assertThat(run("upgrade", "accept", "RiskC").out())
                .isEqualTo("info: Accept risks are not changed\n");
        assertValid(cv());
        assertThat(run("upgrade", "accept", "--clear").out())
                .isEqualTo("info: Accept risks are []\n");
        assertThat(cv().getSpec().getDesiredUpdate().getAdditionalProperties())
                .doesNotContainKey("acceptRisks");

        CliRun.Result usage = run("upgrade", "accept", "--replace", "RiskA-");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.err())
                .isEqualTo(
                        "upshift: The suffix '-' on risks is not allowed if --replace is"
                                + " specified\n"
                                + "See 'upshift upgrade accept -h' for help and examples\n");
    }

    @Test
    void channel() {
        CliRun.Result set = run("upgrade", "channel", "fast-4.18");
        assertThat(set.code()).isZero();
        assertThat(set.out() + set.err()).isEmpty();
        assertThat(cv().getSpec().getChannel()).isEqualTo("fast-4.18");

        CliRun.Result refused = run("upgrade", "channel", "stable-4.19");
        assertThat(refused.code()).isEqualTo(2);
        assertThat(refused.err())
                .isEqualTo(
                        "upshift: the requested channel \"stable-4.19\" is not one of the available"
                                + " channels (fast-4.18, stable-4.18), you must pass"
                                + " --allow-explicit-channel to continue\n");

        CliRun.Result explicit =
                run("upgrade", "channel", "stable-4.19", "--allow-explicit-channel");
        assertThat(explicit.code()).isZero();
        assertThat(explicit.err())
                .startsWith(
                        "warning: The requested channel \"stable-4.19\" is not one of the available"
                                + " channels");
        assertThat(cv().getSpec().getChannel()).isEqualTo("stable-4.19");
        assertThat(run("upgrade", "channel", "stable-4.19").out())
                .isEqualTo("info: Cluster is already in stable-4.19 (no change)\n");
    }

    /**
     * 4.18.1 -> 4.18.2 (partial) -> 4.18.3: `upgrade rollback` and `rollback` request 4.18.2, as oc
     * 4.19's rollback does.
     */
    @Test
    void rollbackAfterARetarget() {
        ClusterVersion cv = cv();
        cv.getStatus().getDesired().setVersion("4.18.3");
        cv.getStatus().getDesired().setImage(image('3'));
        cv.getStatus().getHistory().get(0).setState("Partial");
        cv.getStatus().getHistory().get(0).setVersion("4.18.2");
        cv.getStatus().getHistory().get(0).setImage(image('2'));
        cv.getStatus()
                .getHistory()
                .add(
                        0,
                        new UpdateHistoryBuilder()
                                .withState("Completed")
                                .withVersion("4.18.3")
                                .withImage(image('3'))
                                .withVerified(true)
                                .withStartedTime(T)
                                .withCompletionTime(T)
                                .build());
        cv.getStatus()
                .getHistory()
                .add(
                        new UpdateHistoryBuilder()
                                .withState("Completed")
                                .withVersion("4.18.1")
                                .withImage(image('1'))
                                .withVerified(true)
                                .withStartedTime(T)
                                .withCompletionTime(T)
                                .build());
        client.resources(ClusterVersion.class).resource(cv).updateStatus();

        for (String[] command : new String[][] {{"upgrade", "rollback"}, {"rollback"}}) {
            CliRun.Result r = run(command);
            assertThat(r.code()).as(String.join(" ", command)).isZero();
            assertThat(r.out()).isEqualTo("Requested rollback from 4.18.3 to 4.18.2\n");
            assertThat(cv().getSpec().getDesiredUpdate().getVersion()).isEqualTo("4.18.2");
            assertThat(cv().getSpec().getDesiredUpdate().getImage()).isEqualTo(image('2'));
        }
        assertValid(cv());
    }

    @Test
    void rollbackRefusals() {
        CliRun.Result r = run("rollback");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .isEqualTo(
                        "upshift: no previous version found in ClusterVersion's status.history"
                                + " besides the current 4.18.1 ("
                                + image('1')
                                + ").\n");
        assertThat(run("upgrade", "rollback", "4.18.0").err())
                .isEqualTo(
                        "upshift: unknown command \"4.18.0\"\n"
                                + "See 'upshift upgrade rollback -h' for help and examples\n");
    }

    @Test
    void noClusterVersion() {
        client.resources(ClusterVersion.class).withName("version").delete();
        assertThat(run("upgrade").err())
                .isEqualTo(
                        "upshift: No cluster version information available - you must be connected"
                            + " to an OpenShift version 4 server to fetch the current version\n");
        assertThat(run("upgrade", "rollback").err())
                .isEqualTo(
                        "upshift: no cluster version information available - you must be connected"
                            + " to an OpenShift version 4 server to fetch the current version\n");
        assertThat(run("upgrade", "accept", "A").err())
                .isEqualTo(
                        "upshift: no cluster version information available - you must be connected"
                                + " to an OpenShift server to fetch the current version\n");
    }
}
