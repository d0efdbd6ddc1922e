package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.upshift.clusterversion.metrics.ConditionTransitions;
import io.upshift.clusterversion.metrics.ControllerFacts;
import io.upshift.graph.risk.RiskCondition;
import io.upshift.testkit.EmbeddedApiServer;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The exported rows, as Prometheus reads them, against upstream's names, labels and values
 * (openshift/cluster-version-operator pkg/cvo/metrics.go). Micrometer writes labels in name order
 * and values as Java doubles; times are seconds since the epoch.
 */
@Tag("e2e")
class MetricsTest {

    /** Mid-update from 4.18.1 to 4.18.2, failing; the controller still runs 4.18.1. */
    static final ClusterVersion CV =
            new ClusterVersionBuilder()
                    .withNewMetadata()
                    .withName("version")
                    .withCreationTimestamp("2026-11-20T00:00:00Z")
                    .endMetadata()
                    .withNewSpec()
                    .withClusterID("x")
                    .withChannel("stable-4.18")
                    .withUpstream("https://updates.example/graph")
                    .withNewDesiredUpdate()
                    .withVersion("4.18.2")
                    .withImage("img-2")
                    .endDesiredUpdate()
                    .endSpec()
                    .withNewStatus()
                    .withNewDesired()
                    .withVersion("4.18.2")
                    .withImage("img-2")
                    .endDesired()
                    .addNewHistory()
                    .withState("Partial")
                    .withVersion("4.18.2")
                    .withImage("img-2")
                    .withStartedTime("2026-11-22T01:00:00Z")
                    .endHistory()
                    .addNewHistory()
                    .withState("Completed")
                    .withVersion("4.18.1")
                    .withImage("img-1")
                    .withStartedTime("2026-11-21T01:00:00Z")
                    .withCompletionTime("2026-11-21T01:30:00Z")
                    .endHistory()
                    .addNewHistory()
                    .withState("Completed")
                    .withVersion("4.18.0")
                    .withImage("img-0")
                    .withStartedTime("2026-11-20T00:00:00Z")
                    .withCompletionTime("2026-11-20T00:40:00Z")
                    .endHistory()
                    .addNewCondition()
                    .withType("Available")
                    .withStatus("True")
                    .withReason("")
                    .withLastTransitionTime("2026-11-20T00:40:00Z")
                    .endCondition()
                    .addNewCondition()
                    .withType("Failing")
                    .withStatus("True")
                    .withReason("ClusterOperatorDegraded")
                    .withLastTransitionTime("2026-11-22T02:00:00Z")
                    .endCondition()
                    .addNewCondition()
                    .withType("Progressing")
                    .withStatus("True")
                    .withReason("")
                    .withLastTransitionTime("2026-11-22T01:00:00Z")
                    .endCondition()
                    .addNewCondition()
                    .withType("RetrievedUpdates")
                    .withStatus("True")
                    .withReason("")
                    .withLastTransitionTime("2026-11-20T00:00:00Z")
                    .endCondition()
                    .addNewCondition()
                    .withType("Upgradeable")
                    .withStatus("Unknown")
                    .withReason("Checking")
                    .withLastTransitionTime("2026-11-20T00:00:00Z")
                    .endCondition()
                    .withNewCapabilities()
                    .withEnabledCapabilities("baremetal", "Console")
                    .withKnownCapabilities("baremetal", "Console", "Insights")
                    .endCapabilities()
                    .addNewAvailableUpdate()
                    .withVersion("4.18.3")
                    .withImage("img-3")
                    .endAvailableUpdate()
                    .addNewConditionalUpdate()
                    .withNewRelease()
                    .withVersion("4.18.4")
                    .withImage("img-4")
                    .endRelease()
                    .addToConditions(
                            new ConditionBuilder()
                                    .withType("Recommended")
                                    .withStatus("False")
                                    .withReason("SomeRisk")
                                    .withMessage("m")
                                    .withLastTransitionTime("2026-11-22T03:00:00Z")
                                    .build())
                    .endConditionalUpdate()
                    .endStatus()
                    .build();

    static final ClusterOperator ETCD =
            new ClusterOperatorBuilder()
                    .withNewMetadata()
                    .withName("etcd")
                    .endMetadata()
                    .withNewStatus()
                    .addNewCondition()
                    .withType("Available")
                    .withStatus("True")
                    .withReason("AsExpected")
                    .endCondition()
                    .addNewCondition()
                    .withType("Degraded")
                    .withStatus("False")
                    .withReason("AsExpected")
                    .endCondition()
                    .addNewCondition()
                    .withType("Progressing")
                    .withStatus("Unknown")
                    .withReason("Checking")
                    .endCondition()
                    .addNewVersion()
                    .withName("operator")
                    .withVersion("4.18.1")
                    .endVersion()
                    .endStatus()
                    .build();
    static final ClusterOperator CONSOLE =
            new ClusterOperatorBuilder()
                    .withNewMetadata()
                    .withName("console")
                    .endMetadata()
                    .build();

    static final ControllerFacts FACTS =
            new ControllerFacts(
                    "img-1",
                    "4.18.1",
                    Instant.parse("2026-11-01T00:00:00Z"),
                    new ControllerFacts.PayloadProgress("4.18.2", 57, 96),
                    Instant.parse("2026-11-22T04:00:00Z"),
                    Map.of(
                            "SomeRisk",
                            new RiskCondition("Applies", "True", "Match", ""),
                            "OtherRisk",
                            new RiskCondition(
                                    "Applies", "Unknown", "EvaluationFailed", "no Prometheus")));

    record Fixed(
            ClusterVersion clusterVersion,
            List<ClusterOperator> operators,
            Map<ConditionTransitions.Key, Integer> transitions,
            Map<String, String> installer,
            Map<String, String> manifests)
            implements ClusterMetrics.Source {}

    @Test
    void exportsUpstreamsRows() {
        Fixed source =
                new Fixed(
                        CV,
                        List.of(CONSOLE, ETCD),
                        Map.of(new ConditionTransitions.Key("etcd", "Degraded"), 2),
                        null,
                        Map.of("version", "v4.18.0", "invoker", "user"));
        String text;
        try (ClusterMetrics metrics = new ClusterMetrics(source, () -> FACTS, () -> {})) {
            text = metrics.scrape();
        }
        assertThat(rows(text))
                .containsExactlyInAnyOrder(
                        "cluster_version{from_version=\"4.18.0\",image=\"img-1\",type=\"completed\",version=\"4.18.1\"}"
                            + " 1.7952246E9",
                        "cluster_version{from_version=\"\",image=\"img-0\",type=\"initial\",version=\"4.18.0\"}"
                            + " 1.7951328E9",
                        "cluster_version{from_version=\"4.18.0\",image=\"img-1\",type=\"cluster\",version=\"4.18.1\"}"
                            + " 1.7951328E9",
                        // the latest of history[0]'s start and the conditions' transitions
                        "cluster_version{from_version=\"4.18.1\",image=\"img-2\",type=\"desired\",version=\"4.18.2\"}"
                            + " 1.7953128E9",
                        // failing while a desired update is not reached: named after it, valued at
                        // Failing's transition
                        "cluster_version{from_version=\"4.18.1\",image=\"img-2\",type=\"failure\",version=\"4.18.2\"}"
                            + " 1.7953128E9",
                        "cluster_version{from_version=\"4.18.1\",image=\"img-2\",type=\"updating\",version=\"4.18.2\"}"
                            + " 1.7953092E9",
                        // the release the controller runs, valued at its payload's creation
                        "cluster_version{from_version=\"4.18.1\",image=\"img-1\",type=\"current\",version=\"4.18.1\"}"
                            + " 1.7934912E9",
                        "cluster_version_available_updates{channel=\"stable-4.18\",upstream=\"https://updates.example/graph\"}"
                            + " 1.0",
                        "cluster_version_capability{name=\"baremetal\"} 1.0",
                        "cluster_version_capability{name=\"Console\"} 1.0",
                        "cluster_version_capability{name=\"Insights\"} 0.0",
                        "cluster_version_payload{type=\"pending\",version=\"4.18.2\"} 39.0",
                        "cluster_version_payload{type=\"applied\",version=\"4.18.2\"} 57.0",
                        // the ClusterVersion as an operator named "version": Available with the
                        // last completed version
                        "cluster_operator_up{name=\"version\",reason=\"\",version=\"4.18.1\"} 1.0",
                        "cluster_operator_conditions{condition=\"Available\",name=\"version\",reason=\"\"}"
                            + " 1.0",
                        "cluster_operator_conditions{condition=\"Failing\",name=\"version\",reason=\"ClusterOperatorDegraded\"}"
                            + " 1.0",
                        "cluster_operator_conditions{condition=\"Progressing\",name=\"version\",reason=\"\"}"
                            + " 1.0",
                        "cluster_operator_conditions{condition=\"RetrievedUpdates\",name=\"version\",reason=\"\"}"
                            + " 1.0",
                        "cluster_operator_up{name=\"console\",reason=\"NoAvailableCondition\",version=\"\"}"
                            + " 0.0",
                        "cluster_operator_up{name=\"etcd\",reason=\"AsExpected\",version=\"4.18.1\"}"
                            + " 1.0",
                        "cluster_operator_conditions{condition=\"Available\",name=\"etcd\",reason=\"AsExpected\"}"
                            + " 1.0",
                        "cluster_operator_conditions{condition=\"Degraded\",name=\"etcd\",reason=\"AsExpected\"}"
                            + " 0.0",
                        "cluster_operator_condition_transitions{condition=\"Degraded\",name=\"etcd\"}"
                            + " 2.0",
                        "cluster_version_conditional_update_condition_seconds{condition=\"Recommended\",reason=\"SomeRisk\",status=\"False\",version=\"4.18.4\"}"
                            + " 1.7953164E9",
                        "cluster_version_risk_conditions{condition=\"Applies\",reason=\"EvaluationFailed\",risk=\"OtherRisk\"}"
                            + " -1.0",
                        "cluster_version_risk_conditions{condition=\"Applies\",reason=\"Match\",risk=\"SomeRisk\"}"
                            + " 1.0",
                        "cluster_version_operator_update_retrieval_timestamp_seconds{name=\"\"}"
                                + " 1.79532E9",
                        "cluster_installer{invoker=\"user\",type=\"other\",version=\"v4.18.0\"}"
                                + " 1.0");
        assertThat(text)
                .contains(
                        "# TYPE cluster_version gauge\n",
                        "# TYPE cluster_operator_up gauge\n",
                        "# TYPE cluster_version_payload gauge\n",
                        "# HELP cluster_operator_conditions Report the conditions for active"
                                + " cluster operators. 0 is False and 1 is True.\n");
    }

    @Test
    void updatedAndReconcilingWithoutAControllerHere() {
        // the update completed; no cluster-version controller runs in this process (status only, or
        // another replica)
        ClusterVersion done =
                new ClusterVersionBuilder(CV)
                        .editSpec()
                        .withNewDesiredUpdate()
                        .withVersion("4.18.2")
                        .endDesiredUpdate()
                        .endSpec()
                        .editStatus()
                        .editFirstHistory()
                        .withState("Completed")
                        .withCompletionTime("2026-11-22T01:50:00Z")
                        .endHistory()
                        .withConditions(List.of())
                        .endStatus()
                        .build();
        String text;
        try (ClusterMetrics metrics =
                new ClusterMetrics(
                        new Fixed(done, List.of(), Map.of(), null, null),
                        () -> ControllerFacts.NONE,
                        () -> {})) {
            text = metrics.scrape();
        }
        assertThat(rows(text))
                .filteredOn(
                        r ->
                                r.startsWith("cluster_version{")
                                        || r.startsWith("cluster_installer")
                                        || r.startsWith("cluster_version_payload"))
                .containsExactlyInAnyOrder(
                        "cluster_version{from_version=\"4.18.1\",image=\"img-2\",type=\"completed\",version=\"4.18.2\"}"
                            + " 1.7953122E9",
                        "cluster_version{from_version=\"\",image=\"img-0\",type=\"initial\",version=\"4.18.0\"}"
                            + " 1.7951328E9",
                        "cluster_version{from_version=\"4.18.0\",image=\"img-2\",type=\"cluster\",version=\"4.18.2\"}"
                            + " 1.7951328E9",
                        "cluster_installer{invoker=\"\",type=\"\",version=\"\"} 1.0");
    }

    @Test
    void withoutAClusterVersion() {
        String text;
        try (ClusterMetrics metrics =
                new ClusterMetrics(
                        new Fixed(null, List.of(), Map.of(), Map.of("version", "v4.18.0"), null),
                        () -> ControllerFacts.waiting("img-1"),
                        () -> {})) {
            text = metrics.scrape();
        }
        assertThat(rows(text))
                .containsExactlyInAnyOrder(
                        "cluster_operator_up{name=\"version\",reason=\"ClusterVersionNotFound\",version=\"\"}"
                            + " 0.0",
                        "cluster_operator_conditions{condition=\"Available\",name=\"version\",reason=\"ClusterVersionNotFound\"}"
                            + " 0.0",
                        "cluster_version{from_version=\"\",image=\"img-1\",type=\"current\",version=\"\"}"
                            + " 0.0",
                        "cluster_installer{invoker=\"<missing>\",type=\"openshift-install\",version=\"v4.18.0\"}"
                            + " 1.0");
    }

    /**
     * With spec.upstream unset the controller asks the default update service, labelled as upstream
     * labels it.
     */
    @Test
    void theDefaultUpdateServiceIsLabelledDefault() {
        ClusterVersion cv =
                new ClusterVersionBuilder(CV).editSpec().withUpstream(null).endSpec().build();
        try (ClusterMetrics metrics =
                new ClusterMetrics(
                        new Fixed(cv, List.of(ETCD), Map.of(), null, Map.of()),
                        () -> FACTS,
                        () -> {})) {
            assertThat(metrics.scrape())
                    .contains(
                            "cluster_version_available_updates{channel=\"stable-4.18\",upstream=\"<default>\"}"
                                + " 1.0\n");
        }
    }

    /**
     * From informers: transitions are counted as they happen, and an operator deleted takes its
     * rows with it.
     */
    @Test
    void followsTheCluster() {
        try (EmbeddedApiServer server = new EmbeddedApiServer();
                KubernetesClient client = server.client()) {
            client.resources(ClusterVersion.class)
                    .resource(
                            new ClusterVersionBuilder(CV)
                                    .withStatus(null)
                                    .editMetadata()
                                    .withCreationTimestamp(null)
                                    .endMetadata()
                                    .build())
                    .create();
            client.resources(ClusterOperator.class)
                    .resource(new ClusterOperatorBuilder(ETCD).withStatus(null).build())
                    .create();
            client.resources(ClusterOperator.class)
                    .withName("etcd")
                    .editStatus(
                            co ->
                                    new ClusterOperatorBuilder(co)
                                            .withStatus(ETCD.getStatus())
                                            .build());
            try (ClusterMetrics metrics =
                    ClusterMetrics.watch(client, () -> ControllerFacts.NONE)) {
                await().atMost(Duration.ofSeconds(60))
                        .until(
                                () ->
                                        metrics.scrape()
                                                .contains("cluster_operator_up{name=\"etcd\""));
                client.resources(ClusterOperator.class)
                        .withName("etcd")
                        .editStatus(
                                co ->
                                        new ClusterOperatorBuilder(co)
                                                .editStatus()
                                                .editMatchingCondition(
                                                        c -> c.getType().equals("Degraded"))
                                                .withStatus("True")
                                                .withReason("Broken")
                                                .endCondition()
                                                .endStatus()
                                                .build());
                await().atMost(Duration.ofSeconds(60))
                        .until(
                                () ->
                                        metrics.scrape()
                                                .contains(
                                                        "cluster_operator_condition_transitions{condition=\"Degraded\",name=\"etcd\"}"
                                                            + " 1.0\n"));
                assertThat(metrics.scrape())
                        .contains(
                                "cluster_operator_conditions{condition=\"Degraded\",name=\"etcd\",reason=\"Broken\"}"
                                    + " 1.0\n")
                        .doesNotContain(
                                "cluster_operator_conditions{condition=\"Degraded\",name=\"etcd\",reason=\"AsExpected\"}")
                        .contains(
                                "cluster_version_available_updates{channel=\"stable-4.18\",upstream=\"https://updates.example/graph\"}"
                                    + " 0.0\n");

                client.resources(ClusterOperator.class).withName("etcd").delete();
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> !metrics.scrape().contains("name=\"etcd\""));
            }
        }
    }

    /** The sample lines, without HELP and TYPE. */
    static List<String> rows(String text) {
        return Arrays.stream(text.split("\n"))
                .filter(l -> !l.isEmpty() && !l.startsWith("#"))
                .toList();
    }
}
