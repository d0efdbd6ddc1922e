package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.base.conditions.Conditions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The count of an update's Progressing message after the controller is killed mid-update and
 * another takes over: it goes on from what was reported ("11 of 12 done" stays at least that, even
 * while the cluster shows one of those tasks undone again), never back, in any of the messages the
 * cluster holds (each one watched, not sampled).
 */
@Tag("e2e")
class ProgressAfterRestartTest {
    private static final Pattern COUNT = Pattern.compile(": (\\d+) of (\\d+) done");

    @TempDir Path dir;

    /**
     * Eight ConfigMaps and the ClusterOperator {@code early-operator} (expected at {@code version})
     * in a run-level before the test operator's.
     */
    private static Map<String, String> early(String version) {
        Map<String, String> files = new LinkedHashMap<>();
        for (int i = 0; i < 8; i++)
            files.put(
                    "0000_05_early_" + i + ".yaml",
                    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: early-"
                            + i
                            + "\n  namespace: test-ns\n  annotations:\n"
                            + FakePayloads.INCLUDED
                            + "data:\n  a: b\n");
        files.put(
                "0000_05_early_op.yaml",
                "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n"
                        + "  name: early-operator\n  annotations:\n"
                        + FakePayloads.INCLUDED
                        + "spec: {}\nstatus:\n  versions:\n  - name: operator\n    version: \""
                        + version
                        + "\"\n");
        return files;
    }

    @Test
    void aRestartedControllerNeverReportsALowerCount() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true, early("4.1.0"));
            String b = h.payloads.release("4.1.1", "4.1.1", true, early("4.1.1"));
            ControllerOptions options = ControllerHarness.options(a, dir.resolve("cache"));
            h.start(options);
            await("early-operator created")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.operatorExists("early-operator"));
            h.report("early-operator", "4.1.0");
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));

            List<String> seen = new CopyOnWriteArrayList<>();
            SharedIndexInformer<ClusterVersion> watch =
                    h.client
                            .resources(ClusterVersion.class)
                            .withName("version")
                            .inform(
                                    new ResourceEventHandler<>() {
                                        @Override
                                        public void onAdd(ClusterVersion cv) {
                                            record(cv);
                                        }

                                        @Override
                                        public void onUpdate(
                                                ClusterVersion old, ClusterVersion cv) {
                                            record(cv);
                                        }

                                        @Override
                                        public void onDelete(ClusterVersion cv, boolean unknown) {}

                                        private void record(ClusterVersion cv) {
                                            ClusterOperatorStatusCondition c =
                                                    cv.getStatus() == null
                                                            ? null
                                                            : Conditions.CLUSTER.find(
                                                                    cv.getStatus().getConditions(),
                                                                    "Progressing");
                                            if (c != null) seen.add(c.getMessage());
                                        }
                                    });
            try {
                h.holdOperator(true);
                h.requestUpdate("4.1.1", b, false);
                h.report("early-operator", "4.1.1");
                await("everything but the test operator done")
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () -> h.condition("Progressing").getMessage(),
                                m -> m.startsWith("Working towards 4.1.1: 11 of 12 done"));

                // as kill -9, mid-update; meanwhile early-operator reports its old version again
                // (rolling out once more, say), so that what the cluster shows done is less than
                // what was reported; another controller takes over from the cluster's state
                h.controller.kill();
                h.controllerClient.close();
                h.report("early-operator", "4.1.0");
                h.start(options);
                await("the new controller's passes, waiting on early-operator")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> h.controller.passes() >= 2);
                h.report("early-operator", "4.1.1");
                h.holdOperator(false);
                await("4.1.1 applied")
                        .atMost(Duration.ofSeconds(60))
                        .until(() -> h.completed("4.1.1"));
            } finally {
                watch.close();
            }

            List<Integer> counts = new ArrayList<>();
            for (String m : seen) {
                if (!m.startsWith("Working towards 4.1.1")) continue;
                Matcher c = COUNT.matcher(m);
                if (c.find()) counts.add(Integer.parseInt(c.group(1)));
                else
                    assertThat(counts)
                            .as("a message without a count (%s) after one with a count", m)
                            .isEmpty();
            }
            assertThat(counts).as("counts in %s", seen).contains(11).isSorted();
        }
    }
}
