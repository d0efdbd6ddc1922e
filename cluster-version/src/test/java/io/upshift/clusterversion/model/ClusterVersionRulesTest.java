package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.fabric8.openshift.api.model.config.v1.UpdateBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.base.version.SemVer;
import io.upshift.releases.taskgraph.Mode;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The cluster-version controller's pure rules: history, mode, preconditions, leveling, Failing,
 * progress, targets.
 */
class ClusterVersionRulesTest {

    static final Instant T0 = Instant.parse("2026-11-22T00:00:00Z");

    @Test
    void historyAddsOneEntryPerTargetCompletesAndPrunes() {
        List<UpdateHistory> h = History.begin(List.of(), "1.0.0", "img-a", false, "", T0);
        assertThat(History.mode(h, "img-a")).isEqualTo(Mode.INITIALIZING);
        h = History.complete(h, "img-a", T0.plusSeconds(60));
        assertThat(History.mode(h, "img-a")).isEqualTo(Mode.RECONCILING);
        h =
                History.begin(
                        h,
                        "1.0.1",
                        "img-b",
                        true,
                        "ClusterVersionRecommendedUpdate: not recommended",
                        T0.plusSeconds(100));
        assertThat(History.begin(h, "1.0.1", "img-b", true, "", T0.plusSeconds(200)))
                .hasSize(2); // a resume adds nothing
        assertThat(History.mode(h, "img-b")).isEqualTo(Mode.UPDATING);
        assertThat(h.get(0).getAcceptedRisks()).contains("not recommended");
        // superseded before completing: stays Partial, gets a completion time
        List<UpdateHistory> retarget =
                History.begin(h, "1.0.2", "img-c", true, "", T0.plusSeconds(300));
        assertThat(retarget.get(1).getState()).isEqualTo("Partial");
        assertThat(retarget.get(1).getCompletionTime()).isEqualTo(T0.plusSeconds(300).toString());

        List<UpdateHistory> many = new ArrayList<>(History.complete(h, "img-b", T0));
        for (int i = 0; i < 150; i++)
            many = History.begin(many, "1.1." + i, "img-" + i, true, "", T0.plusSeconds(1000 + i));
        assertThat(many).hasSize(History.MAX);
        assertThat(many.get(0).getVersion()).isEqualTo("1.1.149");
        assertThat(many.get(many.size() - 1).getVersion())
                .isEqualTo("1.0.0"); // the initial install stays
        assertThat(many)
                .extracting(UpdateHistory::getState)
                .contains("Completed"); // the most recent Completed stays
    }

    static UpdateHistory entry(String version, String state) {
        UpdateHistory e = new UpdateHistory();
        e.setVersion(version);
        e.setImage("img-" + version);
        e.setState(state);
        return e;
    }

    static Preconditions.Input input(
            String current,
            String target,
            List<UpdateHistory> history,
            ClusterOperatorStatusCondition upgradeable,
            List<Release> available) {
        return new Preconditions.Input(
                SemVer.parse(current),
                "img-" + current,
                SemVer.parse(target),
                history,
                upgradeable,
                available,
                List.of(),
                "stable-4.18",
                null,
                false,
                null);
    }

    static Release release(String v) {
        Release r = new Release();
        r.setVersion(v);
        r.setImage("img-" + v);
        return r;
    }

    @Test
    void preconditions() {
        List<UpdateHistory> history =
                List.of(entry("4.18.2", "Completed"), entry("4.18.1", "Completed"));
        assertThat(
                        Preconditions.check(
                                input(
                                        "4.18.2",
                                        "4.18.1",
                                        history,
                                        null,
                                        List.of(release("4.18.1")))))
                .noneMatch(Precondition::blocking);
        assertThat(
                        Preconditions.check(
                                input(
                                        "4.18.2",
                                        "4.18.0",
                                        history,
                                        null,
                                        List.of(release("4.18.0")))))
                .anyMatch(
                        p ->
                                p.name().equals(Precondition.ROLLBACK)
                                        && p.blocking()
                                        && p.message()
                                                .contains(
                                                        "only supported rollback is to the"
                                                                + " cluster's previous version"
                                                                + " 4.18.1 (img-4.18.1)"));
        assertThat(Preconditions.check(input("4.18.2", "4.20.0", history, null, List.of())))
                .anyMatch(p -> p.name().equals(Precondition.GIANT_HOP) && p.blocking());
        assertThat(Preconditions.check(input("4.18.2", "5.0.0", history, null, List.of())))
                .anyMatch(p -> p.reason().equals("MajorVersionUpdate"));
        ClusterOperatorStatusCondition notUpgradeable = new ClusterOperatorStatusCondition();
        notUpgradeable.setType("Upgradeable");
        notUpgradeable.setStatus("False");
        notUpgradeable.setReason("PoolUpdating");
        notUpgradeable.setMessage("worker pool is updating");
        assertThat(
                        Preconditions.check(
                                input(
                                        "4.18.2",
                                        "4.19.0",
                                        history,
                                        notUpgradeable,
                                        List.of(release("4.19.0")))))
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.name()).isEqualTo(Precondition.UPGRADEABLE);
                            assertThat(p.blocking()).isTrue();
                        });
        // patch updates are not blocked by Upgradeable=False; a target outside the recommendations
        // only warns
        assertThat(
                        Preconditions.check(
                                input("4.18.2", "4.18.3", history, notUpgradeable, List.of())))
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.name()).isEqualTo(Precondition.RECOMMENDED);
                            assertThat(p.blocking()).isFalse();
                        });
    }

    static ClusterOperator operator(String available, String degraded, String version) {
        return new ClusterOperatorBuilder()
                .withNewMetadata()
                .withName("etcd")
                .endMetadata()
                .withNewStatus()
                .addNewCondition()
                .withType("Available")
                .withStatus(available)
                .endCondition()
                .addNewCondition()
                .withType("Degraded")
                .withStatus(degraded)
                .endCondition()
                .addNewVersion()
                .withName("operator")
                .withVersion(version)
                .endVersion()
                .endStatus()
                .build();
    }

    @Test
    void operatorLevelingAndFailing() {
        Map<String, String> want = Map.of("operator", "4.18.2");
        assertThat(OperatorLevel.check("etcd", want, null, false).level()).isFalse();
        assertThat(OperatorLevel.check("etcd", want, operator("True", "False", "4.18.2"), false))
                .isEqualTo(OperatorLevel.LEVEL);
        assertThat(
                        OperatorLevel.check(
                                        "etcd", want, operator("True", "False", "4.18.1"), false)
                                .reason())
                .isEqualTo("ClusterOperatorUpdating");
        assertThat(
                        OperatorLevel.check(
                                        "etcd", want, operator("False", "False", "4.18.2"), false)
                                .effect())
                .isEqualTo(OperatorLevel.Effect.FAIL);
        assertThat(
                        OperatorLevel.check("etcd", want, operator("True", "True", "4.18.2"), false)
                                .effect())
                .isEqualTo(OperatorLevel.Effect.FAIL_AFTER_INTERVAL);
        assertThat(
                        OperatorLevel.check("etcd", want, operator("True", "True", "4.18.2"), true)
                                .effect())
                .isEqualTo(OperatorLevel.Effect.REPORT);
        assertThat(
                        OperatorLevel.check(
                                        "etcd",
                                        Map.of(),
                                        operator("True", "False", "4.18.2"),
                                        false)
                                .reason())
                .isEqualTo("ClusterOperatorNoVersions");

        Failing.Thresholds t = Failing.Thresholds.standard();
        TaskError degraded =
                new TaskError(
                        "etcd",
                        "ClusterOperatorDegraded",
                        "Cluster operator etcd is degraded",
                        OperatorLevel.Effect.FAIL_AFTER_INTERVAL,
                        T0);
        TaskError waiting =
                new TaskError(
                        "dns",
                        "ClusterOperatorUpdating",
                        "Cluster operator dns is updating versions",
                        OperatorLevel.Effect.NONE,
                        T0);
        // a degraded operator is waited on for 40 minutes before the update fails
        assertThat(Failing.of(List.of(degraded, waiting), T0.plus(Duration.ofMinutes(5)), t))
                .isEqualTo(new Failing("False", "", "", "", "waiting up to 40 minutes on etcd"));
        assertThat(Failing.of(List.of(waiting), T0.plus(Duration.ofMinutes(31)), t).reason())
                .isEqualTo("SlowClusterOperator");
        assertThat(Failing.of(List.of(degraded), T0.plus(Duration.ofMinutes(41)), t))
                .isEqualTo(
                        new Failing(
                                "True",
                                "ClusterOperatorDegraded",
                                "Cluster operator etcd is degraded",
                                "the cluster operator etcd is degraded",
                                "wait has exceeded 40 minutes for these operators: etcd"));
        TaskError mc =
                new TaskError(
                        "machine-config",
                        "ClusterOperatorUpdating",
                        "m",
                        OperatorLevel.Effect.NONE,
                        T0);
        assertThat(Failing.of(List.of(mc), T0.plus(Duration.ofMinutes(60)), t))
                .isEqualTo(Failing.NONE); // 90 minutes for machine-config
        TaskError fail =
                new TaskError(
                        "x",
                        "UpdatePayloadFailed",
                        "Could not update ConfigMap \"a/b\"",
                        OperatorLevel.Effect.FAIL,
                        T0);
        assertThat(Failing.of(List.of(fail, degraded), T0.plus(Duration.ofMinutes(41)), t).reason())
                .isEqualTo("MultipleErrors");
    }

    @Test
    void progressMessage() {
        assertThat(new Progress("4.18.2", 57, 96, "waiting on dns, etcd").message())
                .isEqualTo(
                        "Working towards 4.18.2: 57 of 96 done (59% complete), waiting on dns,"
                                + " etcd");
        assertThat(new Progress("4.18.2", 57, 96, "").message())
                .isEqualTo("Working towards 4.18.2: 57 of 96 done (59% complete)");
    }

    @Test
    void timesAreWrittenInWholeSecondsAsTheApiWritesThem() {
        Instant t = Instant.parse("2026-11-23T12:06:44.123456789Z");
        assertThat(
                        StatusConditions.set(List.of(), "Available", "True", "", "", t)
                                .get(0)
                                .getLastTransitionTime())
                .isEqualTo("2026-11-23T12:06:44Z");
        var h =
                History.complete(
                        History.begin(List.of(), "4.18.1", "img", true, "", t),
                        "img",
                        t.plusMillis(1500));
        assertThat(h.get(0).getStartedTime()).isEqualTo("2026-11-23T12:06:44Z");
        assertThat(h.get(0).getCompletionTime()).isEqualTo("2026-11-23T12:06:45Z");
    }

    @Test
    void desiredUpdates() {
        ClusterVersion cv =
                new ClusterVersionBuilder()
                        .withNewMetadata()
                        .withName("version")
                        .endMetadata()
                        .withNewSpec()
                        .withClusterID("x")
                        .withNewDesiredUpdate()
                        .withVersion("4.18.2")
                        .endDesiredUpdate()
                        .endSpec()
                        .withNewStatus()
                        .withNewDesired()
                        .withVersion("4.18.1")
                        .withImage("img-4.18.1")
                        .endDesired()
                        .addNewAvailableUpdate()
                        .withVersion("4.18.2")
                        .withImage("img-4.18.2")
                        .endAvailableUpdate()
                        .endStatus()
                        .build();
        assertThat(DesiredUpdates.resolve(cv, null).target().image()).isEqualTo("img-4.18.2");
        cv.getSpec().getDesiredUpdate().setVersion("4.18.9");
        assertThat(DesiredUpdates.resolve(cv, null).invalidReason())
                .isEqualTo("InvalidClusterVersion");
        assertThat(DesiredUpdates.resolve(cv, null).target().image())
                .isEqualTo("img-4.18.1"); // the current release stays
        cv.getSpec().getDesiredUpdate().setImage("img-explicit");
        assertThat(DesiredUpdates.resolve(cv, null).target().image()).isEqualTo("img-explicit");
        cv.getSpec().setDesiredUpdate(null);
        assertThat(DesiredUpdates.resolve(cv, "own").target().image())
                .isEqualTo("img-4.18.1"); // stays on the current release
        // risks accepted with no update asked for (upgrade accept; upgrade --clear keeps them)
        // still count
        var onlyRisks = new Update();
        onlyRisks.setVersion("");
        onlyRisks.setImage("");
        onlyRisks.setAdditionalProperty("acceptRisks", List.of(Map.of("name", "SlowDisks")));
        cv.getSpec().setDesiredUpdate(onlyRisks);
        assertThat(DesiredUpdates.resolve(cv, "own").target())
                .isEqualTo(
                        new DesiredUpdates.Target(
                                "4.18.1", "img-4.18.1", false, List.of("SlowDisks")));
        cv.getSpec().setDesiredUpdate(null);
        cv.setStatus(null);
        assertThat(DesiredUpdates.resolve(cv, "own").target().image())
                .isEqualTo("own"); // nothing applied yet: its own release
        // what reaches the cluster is what a kubelet pulls: no docker:// scheme
        String digest = "@sha256:" + "a".repeat(64);
        assertThat(
                        DesiredUpdates.resolve(
                                        cv,
                                        "docker://registry.example:5000/upshift/release" + digest)
                                .target()
                                .image())
                .isEqualTo("registry.example:5000/upshift/release" + digest);
        cv.getSpec()
                .setDesiredUpdate(
                        new UpdateBuilder().withImage("docker://quay.example/r" + digest).build());
        assertThat(DesiredUpdates.resolve(cv, "own").target().image())
                .isEqualTo("quay.example/r" + digest);
    }
}
