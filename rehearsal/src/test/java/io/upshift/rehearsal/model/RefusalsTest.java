package io.upshift.rehearsal.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.upshift.clusterversion.upgrade.UpgradeFlags;
import io.upshift.rehearsal.synthetic.LevelCluster;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;

class RefusalsTest {

    private static UpgradeFlags to(String version) {
        return new UpgradeFlags(version, "", false, false, false, false, false, false, false);
    }

    @Test
    void aPatchUpdateAmongTheAvailableOnesIsNotRefusedAndTheAdminGateIsWorthKnowing() {
        assertThat(Refusals.of(Facts.of(6), Facts.target(LevelCluster.TO), to(LevelCluster.TO)))
                .singleElement()
                .satisfies(
                        b -> {
                            assertThat(b.kind()).isEqualTo(Blocker.Kind.WARNS);
                            assertThat(b.reason()).isEqualTo("AdminAckRequired");
                            assertThat(b.message())
                                    .endsWith("(this holds minor updates, not a patch update)");
                        });
    }

    /** The cluster with its admin gate acknowledged. */
    private static ClusterFacts acked(UnaryOperator<HasMetadata> more) {
        return Facts.of(
                6,
                o -> {
                    if (o instanceof ConfigMap m && m.getMetadata().getName().equals("admin-acks"))
                        m.setData(Map.of("ack-4.18-kube-1.32-api-removals-in-4.19", "true"));
                    return more.apply(o);
                });
    }

    @Test
    void aMinorUpdateIsRefusedByTheRequestForItsRiskAndByTheControllerForTheMissingAck() {
        List<Blocker> refusals =
                Refusals.of(Facts.of(6), Facts.target(LevelCluster.MINOR), to(LevelCluster.MINOR));

        assertThat(refusals)
                .filteredOn(b -> b.kind() == Blocker.Kind.REFUSES)
                .extracting(Blocker::source, Blocker::reason)
                .containsExactly(
                        Tuple.tuple("upshift upgrade", "Refused"),
                        Tuple.tuple("cluster-version controller", "PreconditionChecks"));
        assertThat(refusals.get(0).message())
                .startsWith(
                        "the update 4.19.0 is not one of the recommended updates, but is available"
                                + " as a conditional update.")
                .contains("Reason: IngressDropsLongConnections");
        assertThat(refusals.get(1).message())
                .isEqualTo(
                        "Precondition \"ClusterVersionUpgradeable\" failed because of"
                                + " \"AdminAckRequired\": Kubernetes 1.32 and therefore OpenShift"
                                + " 4.19 remove several APIs which require admin consideration.");
        assertThat(refusals)
                .filteredOn(b -> b.kind() == Blocker.Kind.WARNS)
                .extracting(Blocker::reason)
                .containsExactly("IngressDropsLongConnections");
    }

    @Test
    void forcedAndAllowedNotRecommendedAMinorUpdateIsWarnedOfNotRefused() {
        List<Blocker> r =
                Refusals.of(
                        Facts.of(6),
                        Facts.target(LevelCluster.MINOR),
                        new UpgradeFlags(
                                LevelCluster.MINOR,
                                "",
                                false,
                                false,
                                false,
                                true,
                                false,
                                false,
                                true));
        assertThat(r).extracting(Blocker::kind).doesNotContain(Blocker.Kind.REFUSES);
        assertThat(r)
                .extracting(Blocker::message)
                .anyMatch(
                        m ->
                                m.equals(
                                        "Forced through blocking failures: Precondition"
                                                + " \"ClusterVersionUpgradeable\" failed because of"
                                                + " \"AdminAckRequired\": Kubernetes 1.32 and"
                                                + " therefore OpenShift 4.19 remove several APIs"
                                                + " which require admin consideration."))
                .anyMatch(m -> m.startsWith("with --allow-not-recommended you have accepted"));
    }

    @Test
    void theAckGivenSinceTheControllerLastLookedLiftsTheRefusal() {
        ClusterFacts acked =
                Facts.of(
                        6,
                        o -> {
                            if (o instanceof ConfigMap m
                                    && m.getMetadata().getName().equals("admin-acks"))
                                m.setData(
                                        Map.of("ack-4.18-kube-1.32-api-removals-in-4.19", "true"));
                            return o;
                        });
        assertThat(Refusals.of(acked, Facts.target(LevelCluster.MINOR), to(LevelCluster.MINOR)))
                .extracting(Blocker::reason)
                .doesNotContain("PreconditionChecks");
    }

    @Test
    void anOperatorNotUpgradeableIsOnlyAWarningForAPatchUpdate() {
        ClusterFacts facts =
                acked(
                        o -> {
                            if (o instanceof ClusterOperator co
                                    && co.getMetadata().getName().equals("network"))
                                co.getStatus().getConditions().stream()
                                        .filter(c -> c.getType().equals("Upgradeable"))
                                        .forEach(
                                                c -> {
                                                    c.setStatus("False");
                                                    c.setReason("OVNMigration");
                                                    c.setMessage("migration in progress");
                                                });
                            return o;
                        });
        List<Blocker> r = Refusals.of(facts, Facts.target(LevelCluster.TO), to(LevelCluster.TO));
        assertThat(r).extracting(Blocker::kind).containsOnly(Blocker.Kind.WARNS);
        assertThat(r.get(0).message())
                .isEqualTo(
                        "Upgradeable=False: Cluster operator network should not be upgraded between"
                                + " minor versions: migration in progress (this holds minor"
                                + " updates, not a patch update)");
    }

    @Test
    void aSignatureThatDoesNotVerifyIsRefusedInTheControllersWords() {
        Target unsigned =
                new Target(
                        LevelCluster.TO,
                        Facts.TO_IMAGE,
                        "",
                        LevelCluster.LEVELS,
                        "",
                        Target.Verification.failed(
                                "VerifyFailed: no signature of sha256:bbbb in any store"));
        assertThat(Refusals.of(acked(o -> o), unsigned, to(LevelCluster.TO)))
                .singleElement()
                .satisfies(
                        b ->
                                assertThat(b.message())
                                        .isEqualTo(
                                                "Retrieving payload failed version=\"4.18.2\""
                                                        + " image=\""
                                                        + Facts.TO_IMAGE
                                                        + "\" failure=The update cannot be"
                                                        + " verified: VerifyFailed: no signature"
                                                        + " of sha256:bbbb in any store"));
    }
}
