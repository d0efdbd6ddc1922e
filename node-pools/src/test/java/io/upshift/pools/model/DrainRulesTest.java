package io.upshift.pools.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A pool's drain rules: the annotations, and what a drain round does with a node's pods. */
class DrainRulesTest {

    static Pod pod(String name, Map<String, String> labels, boolean emptyDir) {
        PodBuilder b =
                new PodBuilder()
                        .withNewMetadata()
                        .withName(name)
                        .withNamespace("shop")
                        .withLabels(labels)
                        .endMetadata()
                        .withNewSpec()
                        .endSpec();
        if (emptyDir)
            b.editSpec()
                    .addNewVolume()
                    .withName("scratch")
                    .withNewEmptyDir()
                    .endEmptyDir()
                    .endVolume()
                    .endSpec();
        return b.build();
    }

    static List<String> names(List<Pod> pods) {
        return pods.stream().map(p -> p.getMetadata().getName()).toList();
    }

    @Test
    void skippedPodsStayAndThoseToGoLastWaitForTheOthers() {
        DrainRules rules =
                DrainRules.of(
                        Map.of(
                                DrainRules.SKIP, "app=cache",
                                DrainRules.LAST, "tier in (db, queue),!canary"));
        Pod web = pod("web", Map.of("app", "web"), false),
                cache = pod("cache", Map.of("app", "cache"), false),
                db = pod("db", Map.of("app", "pg", "tier", "db"), false),
                canaryDb = pod("canary-db", Map.of("tier", "db", "canary", ""), false);
        DrainRules.Round first = rules.round(List.of(web, cache, db, canaryDb));
        assertThat(names(first.evict())).containsExactly("web", "canary-db");
        assertThat(names(first.skipped())).containsExactly("cache");
        DrainRules.Round then = rules.round(List.of(cache, db));
        assertThat(names(then.evict())).containsExactly("db");
        assertThat(rules.round(List.of(cache)).evict()).isEmpty();
    }

    @Test
    void emptyDirDataHoldsTheDrainOnlyWhenThePoolSaysSo() {
        Pod scratch = pod("scratch", Map.of(), true);
        assertThat(names(DrainRules.DEFAULT.round(List.of(scratch)).evict()))
                .containsExactly("scratch");
        DrainRules.Round kept =
                DrainRules.of(Map.of(DrainRules.EMPTY_DIR, "false")).round(List.of(scratch));
        assertThat(kept.evict()).isEmpty();
        assertThat(names(kept.localData())).containsExactly("scratch");
    }

    @Test
    void graceAndTimeoutAction() {
        DrainRules rules =
                DrainRules.of(
                        Map.of(
                                DrainRules.GRACE_PERIOD,
                                "1m30s",
                                DrainRules.AFTER_TIMEOUT,
                                "Force"));
        assertThat(rules.gracePeriodSeconds()).isEqualTo(90L);
        assertThat(rules.force()).isTrue();
        assertThat(DrainRules.DEFAULT.force()).isFalse();
        assertThat(DrainRules.DEFAULT.gracePeriodSeconds()).isNull();
    }

    @Test
    void badValuesAreNamed() {
        assertThatThrownBy(() -> DrainRules.of(Map.of(DrainRules.AFTER_TIMEOUT, "force")))
                .hasMessage(
                        "annotation upshift.io/drain-after-timeout \"force\": expected Degraded or"
                                + " Force");
        assertThatThrownBy(() -> DrainRules.of(Map.of(DrainRules.EMPTY_DIR, "yes")))
                .hasMessage(
                        "annotation upshift.io/drain-empty-dir \"yes\": expected true or false");
        assertThatThrownBy(() -> DrainRules.of(Map.of(DrainRules.GRACE_PERIOD, "-1s")))
                .hasMessage(
                        "annotation upshift.io/drain-grace-period \"-1s\": must not be negative");
        assertThatThrownBy(() -> DrainRules.of(Map.of(DrainRules.SKIP, "app=-x")))
                .hasMessageStartingWith("annotation upshift.io/drain-skip \"app=-x\": not a label");
        assertThatThrownBy(() -> DrainRules.of(Map.of(DrainRules.SKIP, "app in a,b")))
                .hasMessageStartingWith("annotation upshift.io/drain-skip");
        assertThatThrownBy(() -> DrainRules.of(Map.of(DrainRules.LAST, "a b")))
                .hasMessage(
                        "annotation upshift.io/drain-last \"a b\": not a label selector: \"a b\":"
                                + " \"a b\" is not a label key");
    }
}
