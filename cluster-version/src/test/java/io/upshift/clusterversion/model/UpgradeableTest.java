package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.ComponentOverrideBuilder;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.base.version.SemVer;
import io.upshift.releases.capability.CapabilitySets;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

/**
 * Upgradeable from upstream's checks: overrides, admin gates, ClusterOperators, deletions, an
 * update in progress.
 */
class UpgradeableTest {
    static final Instant T0 = Instant.parse("2026-11-22T10:00:00Z");
    static final String GATE = "ack-4.19-kube-1.32-api-removals-in-4.20";

    static ClusterOperator operator(String name, String reason, String message) {
        return new ClusterOperatorBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withNewStatus()
                .addNewCondition()
                .withType("Upgradeable")
                .withStatus("False")
                .withReason(reason)
                .withMessage(message)
                .endCondition()
                .endStatus()
                .build();
    }

    /**
     * At 4.19.2, completed; Progressing as given (null: none), and when True the update to 4.19.3
     * under way (Partial).
     */
    static ClusterVersionStatus status(String progressing) {
        ClusterVersionStatus s = new ClusterVersionStatus();
        UpdateHistory h = new UpdateHistory();
        h.setVersion("4.19.2");
        h.setImage("img");
        h.setState("Completed");
        s.setHistory(
                "True".equals(progressing)
                        ? List.of(ClusterVersionRulesTest.entry("4.19.3", "Partial"), h)
                        : List.of(h));
        if (progressing != null)
            s.setConditions(
                    StatusConditions.set(
                            null, "Progressing", progressing, "", "Working towards 4.19.3", T0));
        return s;
    }

    @Test
    void aTargetStillBeingRetrievedIsNoUpdateInProgress() {
        ClusterVersionStatus retrieving = status(null);
        retrieving.setConditions(
                StatusConditions.set(
                        null, "Progressing", "True", "", "Working towards 4.20.0", T0));
        assertThat(
                        UpgradeableChecks.updateInProgress(
                                StatusConditions.find(retrieving.getConditions(), "Progressing"),
                                retrieving.getHistory()))
                .as("history[0] is still the completed 4.19.2: nothing accepted yet")
                .isEmpty();
        ClusterVersionStatus applying = status("True");
        assertThat(
                        UpgradeableChecks.updateInProgress(
                                StatusConditions.find(applying.getConditions(), "Progressing"),
                                applying.getHistory()))
                .isPresent();
    }

    static Upgradeable.Facts facts(
            List<ClusterOperator> operators,
            boolean overrides,
            AdminGates.ConfigMaps gates,
            List<String> deletes) {
        return new Upgradeable.Facts(
                operators,
                overrides
                        ? List.of(
                                new ComponentOverrideBuilder()
                                        .withKind("Deployment")
                                        .withGroup("apps")
                                        .withNamespace("ns")
                                        .withName("x")
                                        .withUnmanaged(true)
                                        .build())
                        : List.of(),
                gates,
                deletes);
    }

    @Test
    void oneReasonIsTheConditionItself() {
        Upgradeable u =
                Upgradeable.of(
                        facts(
                                List.of(operator("etcd", "Defragmenting", "wait")),
                                false,
                                AdminGates.ConfigMaps.NONE,
                                List.of()),
                        status(null));
        assertThat(u.status()).isEqualTo("False");
        assertThat(u.reason()).isEqualTo("Defragmenting");
        assertThat(u.message())
                .isEqualTo(
                        "Cluster operator etcd should not be upgraded between minor versions:"
                                + " wait");
        assertThat(u.conditions())
                .extracting(UpgradeableCheck::type)
                .containsExactly("Upgradeable");

        Upgradeable two =
                Upgradeable.of(
                        facts(
                                List.of(operator("etcd", "A", "a"), operator("dns", "B", "b")),
                                false,
                                AdminGates.ConfigMaps.NONE,
                                List.of()),
                        status(null));
        assertThat(two.reason()).isEqualTo("ClusterOperatorsNotUpgradeable");
        assertThat(two.message())
                .isEqualTo(
                        "Multiple cluster operators should not be upgraded between minor"
                                + " versions:\n"
                                + "* Cluster operator dns should not be upgraded between minor"
                                + " versions: B: b\n"
                                + "* Cluster operator etcd should not be upgraded between minor"
                                + " versions: A: a");

        assertThat(Upgradeable.of(Upgradeable.Facts.none(), status("False")).conditions())
                .isEmpty();
    }

    @Test
    void severalReasonsAreMultipleReasonsWithEachCheckAsItsOwnCondition() {
        Upgradeable u =
                Upgradeable.of(
                        facts(
                                List.of(),
                                true,
                                AdminGates.ConfigMaps.NONE,
                                List.of("deployment \"ns/old\"")),
                        status("True"));
        assertThat(u.reason()).isEqualTo("MultipleReasons");
        assertThat(u.message())
                .isEqualTo(
                        "Cluster should not be upgraded between minor versions for multiple"
                            + " reasons:"
                            + " ClusterVersionOverridesSet,ResourceDeletesInProgress,UpdateInProgress\n"
                            + "* Disabling ownership via cluster version overrides prevents"
                            + " upgrades. Please remove overrides before continuing.\n"
                            + "* Cluster minor level upgrades are not allowed while resource"
                            + " deletions are in progress; resources=deployment \"ns/old\"\n"
                            + "* An update is already in progress and the details are in the"
                            + " Progressing condition");
        assertThat(u.conditions())
                .extracting(UpgradeableCheck::type, UpgradeableCheck::status)
                .containsExactly(
                        Tuple.tuple("UpgradeableClusterVersionOverrides", "False"),
                        Tuple.tuple("UpgradeableDeletesInProgress", "False"),
                        Tuple.tuple("UpgradeableUpgradeInProgress", "True"),
                        Tuple.tuple("Upgradeable", "False"));
    }

    @Test
    void aGateOfTheCurrentMinorHoldsTheClusterUntilAcknowledged() {
        Map<String, String> gates =
                Map.of(
                        GATE,
                        "Kubernetes 1.32 removes APIs; see the article.",
                        "ack-4.18-older-gate",
                        "past");
        Upgradeable held =
                Upgradeable.of(
                        facts(
                                List.of(),
                                false,
                                new AdminGates.ConfigMaps(gates, Map.of()),
                                List.of()),
                        status(null));
        assertThat(held.reason()).isEqualTo("AdminAckRequired");
        assertThat(held.message()).isEqualTo("Kubernetes 1.32 removes APIs; see the article.");
        assertThat(
                        Upgradeable.of(
                                        facts(
                                                List.of(),
                                                false,
                                                new AdminGates.ConfigMaps(
                                                        gates, Map.of(GATE, "true")),
                                                List.of()),
                                        status(null))
                                .conditions())
                .isEmpty();
        assertThat(
                        Upgradeable.of(
                                        facts(
                                                List.of(),
                                                false,
                                                new AdminGates.ConfigMaps(
                                                        gates, Map.of(GATE, "yes")),
                                                List.of()),
                                        status(null))
                                .reason())
                .isEqualTo("AdminAckRequired");
    }

    @Test
    void missingConfigMapsMalformedKeysAndEmptyMessagesAreReasonsToo() {
        assertThat(
                        AdminGates.check(
                                        status(null).getHistory(),
                                        new AdminGates.ConfigMaps(null, Map.of()))
                                .orElseThrow())
                .isEqualTo(
                        new UpgradeableCheck(
                                "UpgradeableAdminAckRequired",
                                "False",
                                "UnableToAccessAdminGatesConfigMap",
                                "admin-gates configmap not found."));
        assertThat(
                        AdminGates.check(
                                        status(null).getHistory(),
                                        new AdminGates.ConfigMaps(Map.of(), null))
                                .orElseThrow()
                                .message())
                .isEqualTo("admin-acks configmap not found.");
        assertThat(AdminGates.check(List.of(), new AdminGates.ConfigMaps(null, null)))
                .as("no history yet: not checked")
                .isEmpty();
        UpgradeableCheck malformed =
                AdminGates.check(
                                status(null).getHistory(),
                                new AdminGates.ConfigMaps(Map.of("ack-419-x", "m"), Map.of()))
                        .orElseThrow();
        assertThat(malformed.reason()).isEqualTo("AdminAckConfigMapGateNameError");
        assertThat(malformed.message())
                .isEqualTo(
                        "admin-gates configmap gate name ack-419-x has invalid format; must comply"
                                + " with \"^ack-[4-5][.]([0-9]{1,})-[^-]\".");
        UpgradeableCheck both =
                AdminGates.check(
                                status(null).getHistory(),
                                new AdminGates.ConfigMaps(
                                        Map.of(GATE, "", "ack-4.19-b", "Acknowledge b."), Map.of()))
                        .orElseThrow();
        assertThat(both.reason()).isEqualTo("MultipleReasons");
        assertThat(both.message())
                .isEqualTo(
                        "Acknowledge b. admin-gates configmap gate "
                                + GATE
                                + " must contain a non-empty value.");
    }

    @Test
    void statusCarriesTheConditionsAndDropsThemOnceTheChecksPass() {
        ClusterVersionStatus held = status("True");
        ClusterVersionStatus s = held;
        for (UpgradeableCheck c :
                Upgradeable.of(facts(List.of(), true, AdminGates.ConfigMaps.NONE, List.of()), held)
                        .conditions()) {
            s.setConditions(
                    StatusConditions.set(
                            s.getConditions(), c.type(), c.status(), c.reason(), c.message(), T0));
        }
        assertThat(s.getConditions())
                .extracting(ClusterOperatorStatusCondition::getType)
                .contains("UpgradeableClusterVersionOverrides", "Upgradeable");
        var cv =
                new ClusterVersionBuilder()
                        .withNewMetadata()
                        .withName("version")
                        .endMetadata()
                        .withNewSpec()
                        .withClusterID("c")
                        .endSpec()
                        .withStatus(s)
                        .build();
        ClusterVersionStatus next =
                VersionStatus.next(
                        new VersionStatus.Input(
                                cv,
                                new DesiredUpdates.Resolution(null, null, null),
                                SyncStatus.IDLE,
                                UpdatesReport.unchanged(T0),
                                Upgradeable.Facts.none(),
                                CapabilitySets.of(null, List.of(), List.of(), Set.of()),
                                T0));
        // still Progressing=True from before: only the update in progress remains
        assertThat(next.getConditions())
                .extracting(ClusterOperatorStatusCondition::getType)
                .doesNotContain(
                        "UpgradeableClusterVersionOverrides", "UpgradeableUpgradeInProgress");
        assertThat(VersionStatusTest.condition(next, "Upgradeable"))
                .isEqualTo(
                        "False UpdateInProgress An update is already in progress and the details"
                                + " are in the Progressing condition");
        next.setConditions(StatusConditions.remove(next.getConditions(), "Progressing"));
        cv.setStatus(next);
        ClusterVersionStatus level =
                VersionStatus.next(
                        new VersionStatus.Input(
                                cv,
                                new DesiredUpdates.Resolution(null, null, null),
                                SyncStatus.IDLE,
                                UpdatesReport.unchanged(T0),
                                Upgradeable.Facts.none(),
                                CapabilitySets.of(null, List.of(), List.of(), Set.of()),
                                T0));
        assertThat(VersionStatusTest.condition(level, "Upgradeable"))
                .as("upgradeable: no condition, as upstream")
                .isNull();
    }

    static Preconditions.Input input(
            String current,
            String target,
            ClusterOperatorStatusCondition upgradeable,
            List<UpdateHistory> history,
            boolean overrides,
            String progressing) {
        return new Preconditions.Input(
                SemVer.parse(current),
                "img-" + current,
                SemVer.parse(target),
                history,
                upgradeable,
                List.of(ClusterVersionRulesTest.release(target)),
                List.of(),
                "stable-4.19",
                null,
                overrides,
                progressing == null
                        ? null
                        : StatusConditions.set(null, "Progressing", progressing, "", "", T0)
                                .get(0));
    }

    @Test
    void thePreconditionRefusesAMinorRetargetDuringAnUpdateAndWarnsOnAPatchRetarget() {
        ClusterOperatorStatusCondition inProgress =
                StatusConditions.set(
                                null,
                                "Upgradeable",
                                "False",
                                "UpdateInProgress",
                                "An update is already in progress and the details are in the"
                                        + " Progressing condition",
                                T0)
                        .get(0);
        List<UpdateHistory> minorUpdate =
                List.of(
                        ClusterVersionRulesTest.entry("4.19.0", "Partial"),
                        ClusterVersionRulesTest.entry("4.18.3", "Completed"));
        assertThat(
                        Preconditions.check(
                                input("4.19.0", "4.20.0", inProgress, minorUpdate, false, "True")))
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.name()).isEqualTo("ClusterVersionUpgradeable");
                            assertThat(p.reason()).isEqualTo("UpdateInProgress");
                            assertThat(p.message())
                                    .isEqualTo(
                                            "An update is already in progress and the details are"
                                                    + " in the Progressing condition");
                            assertThat(p.blocking()).isTrue();
                        });
        assertThat(
                        Preconditions.check(
                                input("4.19.0", "4.19.1", inProgress, minorUpdate, false, "True")))
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.reason()).isEqualTo("MinorVersionClusterUpdateInProgress");
                            assertThat(p.message())
                                    .isEqualTo(
                                            "Retarget to 4.19.1 while a minor level update from"
                                                    + " 4.18.3 to 4.19.0 is in progress");
                            assertThat(p.blocking()).isFalse();
                        });
        // a patch update within the minor the cluster completed: nothing to say
        List<UpdateHistory> patchUpdate =
                List.of(
                        ClusterVersionRulesTest.entry("4.19.1", "Partial"),
                        ClusterVersionRulesTest.entry("4.19.0", "Completed"));
        assertThat(
                        Preconditions.check(
                                input("4.19.1", "4.19.2", inProgress, patchUpdate, false, "True")))
                .isEmpty();
        // overrides hold patch updates too
        ClusterOperatorStatusCondition overridden =
                StatusConditions.set(
                                null, "Upgradeable", "False", "ClusterVersionOverridesSet", "x", T0)
                        .get(0);
        assertThat(
                        Preconditions.check(
                                input("4.19.1", "4.19.2", overridden, patchUpdate, true, "False")))
                .singleElement()
                .satisfies(
                        p -> {
                            assertThat(p.reason()).isEqualTo("ClusterVersionOverridesSet");
                            assertThat(p.blocking()).isTrue();
                        });
    }
}
