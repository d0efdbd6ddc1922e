package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.upshift.api.json.Mappers;
import io.upshift.rehearsal.command.RehearseCommand;
import io.upshift.rehearsal.synthetic.LevelCluster;
import io.upshift.rehearsal.synthetic.LevelReleases;
import io.upshift.status.snapshot.SnapshotDump;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code upshift rehearse --snapshot} on a mid-size cluster (3 control-plane nodes, 30 workers, 11
 * operators) whose database budget allows no disruption, its releases signed in an OCI layout.
 */
@Tag("e2e")
class RehearseSnapshotTest {
    static final Instant AT = Instant.parse("2026-11-20T10:00:00Z");

    @TempDir static Path work;
    static Path snapshot;
    static String from, to, unsigned;

    @BeforeAll
    static void cluster() throws Exception {
        LevelReleases releases = new LevelReleases(work.resolve("releases"));
        from = releases.publish(LevelCluster.FROM, true);
        to = releases.publish(LevelCluster.TO, true);
        unsigned = releases.publish("4.18.3", false);
        snapshot = work.resolve("snapshot");
        SnapshotDump.write(snapshot, new LevelCluster(30, from, to, AT).objects());
    }

    @Test
    void theBudgetThatAllowsNoDisruptionIsNamedWithTheNodesItWouldStall() {
        CliRun.Result r =
                run("rehearse", "--snapshot", snapshot.toString(), "--to", "4.18.2", "--plan-only");

        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.out())
                .contains("Signature: verified")
                .contains("= Would stall the update =")
                .contains(
                        "node agent, pool worker, nodes worker-03, worker-07:\n"
                                + "  Reason: DrainBlocked")
                .contains(
                        "node worker-03 stays Draining: PodDisruptionBudget shop/db does not allow"
                                + " evicting pod shop/db-0")
                .contains("Run-levels: learned: the run-level times of the update to 4.18.1")
                .contains("Total: does not finish (stalls)")
                .doesNotContain("= Would refuse the update =");
        assertThat(r.out())
                .containsPattern("worker +30 +2 +\\S+ +stalls .*stalls at worker-03, worker-07");
    }

    @Test
    void jsonCarriesTheSameFindingsInSecondsFromTheRequest() throws Exception {
        CliRun.Result r =
                run(
                        "rehearse",
                        "--snapshot",
                        snapshot.toString(),
                        "--to",
                        "4.18.2",
                        "--plan-only",
                        "--output",
                        "json");
        JsonNode json = Mappers.JSON.readTree(r.out());
        assertThat(json.at("/target/version").asText()).isEqualTo("4.18.2");
        assertThat(json.at("/blockers/0/reason").asText()).isEqualTo("DrainBlocked");
        assertThat(json.at("/blockers/0/place/nodes").toString())
                .isEqualTo("[\"worker-03\",\"worker-07\"]");
        assertThat(json.at("/timeline/runLevels/1/start").asDouble()).isEqualTo(12.0);
        assertThat(json.at("/timeline/end").isMissingNode()).isTrue();
    }

    @Test
    void aMinorUpdateIsRefusedForItsRiskAndTheMissingAckInTheirOwnWords() {
        CliRun.Result r =
                run("rehearse", "--snapshot", snapshot.toString(), "--to", "4.19.0", "--plan-only");
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out())
                .contains("= Would refuse the update =")
                .contains(
                        "Precondition \"ClusterVersionUpgradeable\" failed because of"
                                + " \"AdminAckRequired\"")
                .contains(
                        "is not one of the recommended updates, but is available as a conditional"
                                + " update")
                // its image is not reachable: the rehearsal goes on with the last update's
                // run-levels
                .contains(
                        "Run-levels: 8, from the last update's run-levels (the payload could not be"
                                + " read)")
                .contains("The rehearsal went without:\n")
                .contains("\n* the payload of quay.io/openshift-release-dev");
    }

    @Test
    void aReleaseThatFailsVerificationIsRefusedInTheControllersWords() {
        CliRun.Result r =
                run(
                        "rehearse",
                        "--snapshot",
                        snapshot.toString(),
                        "--to-image",
                        unsigned,
                        "--plan-only");
        assertThat(r.code()).as(r.err()).isEqualTo(1);
        assertThat(r.out())
                .contains("Signature: does not verify: ")
                .contains(
                        "cluster-version controller:\n  Reason: RetrievePayload\n  Message:"
                                + " Retrieving payload failed version=\"4.18.3\" image=\""
                                + unsigned
                                + "\" failure=The update cannot be verified: ");
    }

    /** The options rehearse's text names are options rehearse has. */
    private static void namesOnlyRehearsesOptions(String text) {
        Set<String> options =
                new CommandLine(new RehearseCommand()).getCommandSpec().optionsMap().keySet();
        Matcher named = Pattern.compile("--[a-z][a-z-]*[a-z]").matcher(text);
        while (named.find()) assertThat(options).as("in:%n%s", text).contains(named.group());
    }

    @Test
    void anImageNotAmongTheUpdatesIsRefusedNamingOptionsRehearseHasWhichLetItThrough() {
        // a pullspec the request check judges (an OCI layout is no pullspec it takes)
        String image = "registry.invalid/ocp/release@sha256:" + "3".repeat(64);
        CliRun.Result r =
                run(
                        "rehearse",
                        "--snapshot",
                        snapshot.toString(),
                        "--to-image",
                        image,
                        "--plan-only");
        assertThat(r.out())
                .as(r.err())
                .contains(
                        "upshift upgrade:\n  Reason: Refused\n  Message: the update is not one of"
                                + " the possible targets: 4.18.2")
                .contains("specify --allow-explicit-upgrade to continue with the update.");
        namesOnlyRehearsesOptions(r.out());

        CliRun.Result allowed =
                run(
                        "rehearse",
                        "--snapshot",
                        snapshot.toString(),
                        "--to-image",
                        image,
                        "--allow-explicit-upgrade",
                        "--plan-only");
        assertThat(allowed.out())
                .as(allowed.err())
                .doesNotContain("Reason: Refused")
                .contains(
                        "You have used --allow-explicit-upgrade for the update to proceed anyway");
        namesOnlyRehearsesOptions(allowed.out());
    }

    @Test
    void forcedTheControllersFailedVerificationIsTheRiskItAccepts() {
        CliRun.Result r =
                run(
                        "rehearse",
                        "--snapshot",
                        snapshot.toString(),
                        "--to-image",
                        unsigned,
                        "--force",
                        "--plan-only");
        assertThat(r.out())
                .as(r.err())
                .doesNotContain("= Would refuse the update =")
                .contains(
                        "cluster-version controller:\n  Reason: RetrievePayload\n  Message: Target"
                                + " release version=\"4.18.3\" image=\""
                                + unsigned
                                + "\" cannot be verified, but continuing anyway because the update"
                                + " was forced: The update cannot be verified: ");
        namesOnlyRehearsesOptions(r.out());
    }

    @Test
    void anUnknownVersionIsOneLine() {
        CliRun.Result r = run("rehearse", "--snapshot", snapshot.toString(), "--to", "4.18.9");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .isEqualTo(
                        "upshift: 4.18.9 is not an update the cluster knows of (it knows 4.18.2,"
                                + " 4.19.0): give the release's image with --to-image\n");
    }

    @Test
    void aSnapshotWithoutPodsOrBudgetsRehearsesWhatItCanAndSaysWhatItLacked() throws Exception {
        Path partial = work.resolve("partial");
        List<HasMetadata> objects =
                new LevelCluster(30, from, to, AT)
                        .objects().stream()
                                .filter(
                                        o ->
                                                !o.getKind().equals("Pod")
                                                        && !o.getKind()
                                                                .equals("PodDisruptionBudget"))
                                .toList();
        SnapshotDump.write(partial, objects);
        CliRun.Result r =
                run("rehearse", "--snapshot", partial.toString(), "--to", "4.18.2", "--plan-only");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out())
                .contains("Nothing found that would refuse or stall this update.")
                .contains(
                        "The rehearsal went without:\n"
                                + "* PodDisruptionBudgets: no drain is known to be held up\n"
                                + "* pods: the drains are rehearsed without what they evict\n");
    }

    @Test
    void aSnapshotOfTheClusterVersionAloneNamesEveryKindItLacked() throws Exception {
        Path alone = work.resolve("cluster-version-alone");
        SnapshotDump.write(
                alone,
                new LevelCluster(30, from, to, AT)
                        .objects().stream()
                                .filter(o -> o.getKind().equals("ClusterVersion"))
                                .toList());
        CliRun.Result r =
                run("rehearse", "--snapshot", alone.toString(), "--to", "4.18.2", "--plan-only");
        assertThat(r.code()).as(r.out() + r.err()).isZero();
        assertThat(r.out())
                .contains("Signature: verified")
                .contains(
                        "The rehearsal went without:\n"
                                + "* ClusterOperators: no operator is known to be degraded or to"
                                + " hold it\n"
                                + "* MachineConfigPools: no pool's rollout is rehearsed\n"
                                + "* Nodes: no node's update is rehearsed\n"
                                + "* ConfigMaps: the admin gates and acks, and the signatures the"
                                + " cluster keeps\n"
                                + "* PodDisruptionBudgets: no drain is known to be held up\n"
                                + "* pods: the drains are rehearsed without what they evict\n"
                                + "* FeatureGate cluster: the Default feature set is assumed\n");
    }

    @Test
    void aSnapshotWithoutAClusterVersionIsOneLine() throws Exception {
        Path none = work.resolve("no-cluster-version");
        SnapshotDump.write(
                none,
                new LevelCluster(3, from, to, AT)
                        .objects().stream()
                                .filter(o -> !o.getKind().equals("ClusterVersion"))
                                .toList());
        CliRun.Result r = run("rehearse", "--snapshot", none.toString(), "--to", "4.18.2");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.out()).isEmpty();
        assertThat(r.err())
                .isEqualTo(
                        "upshift: "
                                + none
                                + ": no ClusterVersion found (the cluster has no ClusterVersion"
                                + " named \"version\")\n");
    }

    @Test
    void aMissingSnapshotAndABadOutputAreOneLineEach() throws Exception {
        CliRun.Result r =
                run("rehearse", "--snapshot", work.resolve("none").toString(), "--to", "4.18.2");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err()).isEqualTo("upshift: " + work.resolve("none") + ": not a directory\n");

        r =
                run(
                        "rehearse",
                        "--snapshot",
                        snapshot.toString(),
                        "--to",
                        "4.18.2",
                        "--output",
                        "html");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("upshift: --output html needs the FILE to write the page to\n");
    }

    @Test
    void htmlIsWrittenToTheFileAndTheTextToStdout() throws Exception {
        Path page = work.resolve("rehearsal.html");
        CliRun.Result r =
                run(
                        "rehearse",
                        "--snapshot",
                        snapshot.toString(),
                        "--to",
                        "4.18.2",
                        "--plan-only",
                        "--output",
                        "html",
                        page.toString());
        assertThat(r.code()).isEqualTo(1);
        assertThat(r.out()).endsWith("The timeline is drawn in " + page + "\n");
        String html = Files.readString(page);
        assertThat(html)
                .startsWith("<!DOCTYPE html>")
                .contains("<svg")
                .contains("class=\"bar stalled\"");
        assertThat(html).doesNotContain("src=").doesNotContain("<link").doesNotContain("<script");
    }
}
