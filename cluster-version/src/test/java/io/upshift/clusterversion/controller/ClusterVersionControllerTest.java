package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.coordination.v1.Lease;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.api.json.Mappers;
import io.upshift.api.schema.CrdSchema;
import io.upshift.clusterversion.metrics.ControllerFacts;
import io.upshift.clusterversion.model.DesiredUpdates;
import io.upshift.runtime.kube.Leadership;
import io.upshift.runtime.kube.WriteFence;
import io.upshift.testkit.ApiServer;
import io.upshift.testkit.ApiServers;
import io.upshift.testkit.Conflicts;
import io.upshift.testkit.Faults;
import io.upshift.testkit.RequestLog;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The cluster-version controller and its sync worker step by step, on the embedded API server with
 * releases given directly: what status shows at each step, how many requests it makes, how it
 * retries, and what it does on losing its Lease.
 */
@Tag("e2e")
class ClusterVersionControllerTest {

    @TempDir Path dir;

    @Test
    void aLevelClusterCostsNoRequestAndNoWriteThroughReconcilePasses() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            assertThat(h.condition("Progressing").getMessage())
                    .isEqualTo("Cluster version is 4.1.0");
            long[] last = {-1};
            await("writes settled")
                    .atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500))
                    .until(
                            () -> {
                                long now = h.controller.writes();
                                boolean same = now == last[0];
                                last[0] = now;
                                return same;
                            });
            int calls = h.controllerCalls();
            long writes = h.controller.writes();
            h.passesWritten(3); // Reconciling passes (one every 1-2 s here) and status syncs
            assertThat(h.controller.writes()).isEqualTo(writes);
            assertThat(h.controllerRequests(r -> !r.isWatch()).subList(calls, h.controllerCalls()))
                    .isEmpty();
        }
    }

    @Test
    void withoutAClusterVersionTheControllerCreatesTheDefaultOneAndInstallsItsRelease()
            throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir, false)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            String id = h.clusterVersion().getSpec().getClusterID();
            assertThat(UUID.fromString(id).version()).isEqualTo(4);
            assertThat(h.clusterVersion().getSpec().getChannel()).isNull();
            assertThat(
                            h.controllerRequests(
                                    r ->
                                            "POST".equals(r.method())
                                                    && r.path().contains("/clusterversions")))
                    .hasSize(1);
        }
    }

    @Test
    void anUpdateIsAcceptedRecordedAndAppliedWithStatusAtEachStep() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String b = h.payloads.release("4.1.1", "4.1.1", true);
            installed(h, a);
            h.holdOperator(true);
            h.requestUpdate("4.1.1", b, false);
            // accepted and recorded first (past Unknown/RetrievePayload while the Job runs) ...
            ClusterOperatorStatusCondition accepted =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> h.condition("ReleaseAccepted"),
                                    c ->
                                            !"Unknown".equals(c.getStatus())
                                                    && c.getMessage() != null
                                                    && c.getMessage().contains("4.1.1"));
            assertThat(accepted.getStatus()).isEqualTo("True");
            assertThat(accepted.getReason()).isEqualTo("PayloadLoaded");
            List<UpdateHistory> history = h.clusterVersion().getStatus().getHistory();
            assertThat(history)
                    .extracting(UpdateHistory::getVersion)
                    .containsExactly("4.1.1", "4.1.0");
            assertThat(history.get(0).getState()).isEqualTo("Partial");
            assertThat(history.get(0).getVerified()).isTrue();
            // ... then applied, waiting on the operator that has not rolled out
            ClusterOperatorStatusCondition waiting =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> h.condition("Progressing"),
                                    c -> c.getMessage().contains("waiting on test-operator"));
            assertThat(waiting.getStatus()).isEqualTo("True");
            assertThat(waiting.getMessage()).startsWith("Working towards 4.1.1: ");
            assertThat(h.settingsData()).containsEntry("version", "4.1.1");
            // what metrics say of the controller: it still runs 4.1.0, its pass over 4.1.1 is not
            // done
            ControllerFacts facts = h.controller.facts();
            assertThat(facts.runningImage()).isEqualTo(DesiredUpdates.bare(a));
            assertThat(facts.runningVersion()).isEqualTo("4.1.0");
            assertThat(facts.runningCreated()).isEqualTo(Instant.parse(FakePayloads.CREATED));
            assertThat(facts.payload().version()).isEqualTo("4.1.1");
            assertThat(facts.payload().done()).isPositive().isLessThan(facts.payload().total());
            // the operator rolls out: done
            h.holdOperator(false);
            await().atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.1"));
            await().atMost(Duration.ofSeconds(60))
                    .until(() -> h.controller.facts().payload(), p -> p.done() == p.total());
            assertThat(h.condition("Progressing").getStatus()).isEqualTo("False");
            assertThat(h.condition("Progressing").getMessage())
                    .isEqualTo("Cluster version is 4.1.1");
            assertThat(h.condition("Available").getMessage()).isEqualTo("Done applying 4.1.1");
            assertThat(h.condition("Failing").getStatus()).isEqualTo("False");
        }
    }

    @Test
    void aRefusedTargetIsRetriedWithBackoffWritesStatusOnceAndCountsOnOneEvent() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String wrong =
                    h.payloads.release(
                            "4.1.5", "4.1.6", true); // its payload says it is another version
            installed(h, a);
            int loadsBefore = h.payloads.loads.get();
            h.requestUpdate("4.1.5", wrong, false);
            ClusterOperatorStatusCondition refused =
                    await().atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> h.condition("ReleaseAccepted"),
                                    c -> "False".equals(c.getStatus()));
            assertThat(refused.getReason()).isEqualTo("VerifyPayloadVersion");
            // the controller counts a write once its answer is back, so the condition can be read
            // here before the write that made it is counted (a loaded machine showed it): counted
            // from the second try on, when the first try's pass has ended
            await("a second try")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.payloads.loads.get() - loadsBefore >= 2);
            long writes = h.controller.writes();
            // upstream's backoff: a reconcile interval (1-2 s here) / 16, doubling up to the
            // interval; a slow machine only makes the gaps longer, so they are checked from
            // below: the last ones are near the interval, not a loop's
            await("six tries")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.payloads.loads.get() - loadsBefore >= 6);
            List<Long> at = h.payloads.loadTimes();
            List<Long> gaps = new ArrayList<>();
            for (int i = at.size() - 5; i < at.size(); i++)
                gaps.add((at.get(i) - at.get(i - 1)) / 1_000_000);
            assertThat(gaps.subList(gaps.size() - 2, gaps.size()))
                    .as("the last gaps between tries, in ms: %s", gaps)
                    .allMatch(ms -> ms >= 400);
            int tries = h.payloads.loads.get() - loadsBefore;
            assertThat(h.controller.writes())
                    .as("status is not rewritten while the refusal stays the same")
                    .isEqualTo(writes);
            List<Event> events =
                    h.client.v1().events().inNamespace("default").list().getItems().stream()
                            .filter(e -> "VerifyPayloadVersionFailed".equals(e.getReason()))
                            .toList();
            assertThat(events).hasSize(1);
            assertThat(events.get(0).getCount()).isGreaterThanOrEqualTo(tries - 1);
        }
    }

    @Test
    void aManifestTheApiKeepsRefusingKeepsOneProgressingMessageAndNoRewrites() throws Exception {
        // a refusal injected: the embedded server's faults
        try (ControllerHarness h = ControllerHarness.onEmbeddedServer(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String b = h.payloads.release("4.1.1", "4.1.1", true);
            installed(h, a);
            h.embedded()
                    .dispatcher()
                    .faults(
                            Faults.share(ControllerHarness.CONTROLLER, 0, 1)
                                    .rejectWritesTo(
                                            "/configmaps/settings",
                                            "ConfigMap \"settings\" is invalid: data: Too long"));
            h.requestUpdate("4.1.1", b, false);
            ClusterOperatorStatusCondition failing =
                    await().atMost(Duration.ofSeconds(60))
                            .until(() -> h.condition("Failing"), c -> "True".equals(c.getStatus()));
            assertThat(failing.getReason()).isEqualTo("UpdatePayloadFailed");
            assertThat(failing.getMessage())
                    .startsWith("Could not update ConfigMap \"test-ns/settings\"")
                    .contains("ConfigMap \"settings\" is invalid: data: Too long");
            // Progressing says it in upstream's few words; Failing has the whole message
            String progressing = h.condition("Progressing").getMessage();
            assertThat(progressing)
                    .isEqualTo("Unable to apply 4.1.1: the update could not be applied");
            long writes = h.controller.writes();
            int mark = h.controllerRequests(r -> r.isWrite()).size();
            List<String> seen = new CopyOnWriteArrayList<>();
            for (int i = 0; i < 4; i++) {
                h.aPassWritten(); // passes retried meanwhile
                seen.add(h.condition("Progressing").getMessage());
            }
            assertThat(seen).containsOnly(progressing);
            List<RequestLog.Request> all = h.controllerRequests(r -> r.isWrite());
            assertThat(h.controller.writes())
                    .as("writes: %s", all.subList(mark, all.size()))
                    .isEqualTo(writes);
        }
    }

    @Test
    void aStatusFieldTheInstalledCrdRejectsIsLeftOutAndNamedWhileTheRestIsWritten()
            throws Exception {
        // an older ClusterVersion CRD, without status.availableUpdates, installed before the
        // installer creates the ClusterVersion
        ApiServer server = ApiServers.start("clusteroperators.config.openshift.io").installRbac();
        try (var in =
                CrdSchema.class.getResourceAsStream(
                        "/crds/clusterversions.config.openshift.io.yaml")) {
            JsonNode crd = Mappers.YAML.readTree(in);
            ((ObjectNode)
                            crd.at(
                                    "/spec/versions/0/schema/openAPIV3Schema/properties/status/properties"))
                    .remove("availableUpdates");
            server.client()
                    .apiextensions()
                    .v1()
                    .customResourceDefinitions()
                    .resource(
                            Mappers.JSON.convertValue(
                                    crd,
                                    io.fabric8.kubernetes.api.model.apiextensions.v1
                                            .CustomResourceDefinition.class))
                    .create();
        } catch (RuntimeException e) {
            server.close();
            throw e;
        }
        try (ControllerHarness h = new ControllerHarness(dir, true, server)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            installed(h, a);
            ClusterOperatorStatusCondition reported = h.condition("StatusReported");
            assertThat(reported.getStatus()).isEqualTo("False");
            assertThat(reported.getReason()).isEqualTo("RejectedByInstalledCRD");
            assertThat(reported.getMessage())
                    .startsWith(
                            "The ClusterVersion CRD installed in the cluster rejects"
                                    + " status.availableUpdates");
            assertThat(h.client.v1().events().inNamespace("default").list().getItems())
                    .anyMatch(
                            e ->
                                    "StatusRejectedByCRD".equals(e.getReason())
                                            && e.getMessage().contains("status.availableUpdates"));
            assertThat(h.condition("Progressing").getMessage())
                    .isEqualTo("Cluster version is 4.1.0");
        }
    }

    @Test
    void everyWriteConflictingOnItsFirstAttemptStillConverges() throws Exception {
        // conflicts injected: the embedded server's faults
        try (ControllerHarness h = ControllerHarness.onEmbeddedServer(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String b = h.payloads.release("4.1.1", "4.1.1", true);
            h.embedded()
                    .dispatcher()
                    .faults(Faults.conflictOnFirstWrite(ControllerHarness.CONTROLLER));
            installed(h, a);
            h.requestUpdate("4.1.1", b, false);
            await().atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.1"));
            assertThat(h.clusterVersion().getStatus().getHistory())
                    .extracting(UpdateHistory::getVersion)
                    .containsExactly("4.1.1", "4.1.0");
            assertThat(h.settingsData()).containsEntry("version", "4.1.1");
            int conflicts =
                    h.controllerRequests(r -> r.isWrite()).size() - (int) h.controller.writes();
            assertThat(conflicts).as("writes refused once each").isPositive();
        }
    }

    @Test
    void aLeaseLostMidPassStopsEveryWriteAtOnce() throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String b =
                    h.payloads.release(
                            "4.1.1",
                            "4.1.1",
                            true,
                            "apiVersion: v1\n"
                                    + "kind: ConfigMap\n"
                                    + "metadata:\n"
                                    + "  name: later\n"
                                    + "  namespace: test-ns\n"
                                    + "  annotations:\n"
                                    + FakePayloads.INCLUDED
                                    + "data: {a: b}\n");
            WriteFence fence = new WriteFence();
            AtomicBoolean lost = new AtomicBoolean();
            // a lease of 15 s renewed every second: it is lost when the test takes it, not to a
            // busy machine
            Leadership.Timings fast =
                    new Leadership.Timings(
                            Duration.ofSeconds(15), Duration.ofSeconds(10), Duration.ofSeconds(1));
            try (Leadership leadership =
                    new Leadership(
                            h.client,
                            "openshift-cluster-version",
                            "version",
                            "replica-a",
                            fast,
                            () ->
                                    h.start(
                                            ControllerHarness.options(a, dir.resolve("cache")),
                                            fence::client),
                            () -> {
                                fence.close(); // only the fence: the controller runs on, and
                                // must not get a write out
                                lost.set(true);
                            })) {
                await().atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.0"));
                h.holdOperator(
                        true); // the update's pass waits on the operator: the Lease goes mid-pass
                h.requestUpdate("4.1.1", b, false);
                await().atMost(Duration.ofSeconds(60))
                        .until(() -> "4.1.1".equals(h.settingsData().get("version")));
                // another replica takes the Lease, retrying as a real one would when a renewal
                // lands between its read and its write
                Conflicts.retry(() -> takeLease(h, "replica-b"));
                await("the loss noticed").atMost(Duration.ofSeconds(60)).untilTrue(lost);
                int writes = h.controllerRequests(r -> r.isWrite()).size();
                h.holdOperator(
                        false); // the world moves on: a running controller would now write progress
                // and the next run-level: it tries, and its writes stop at the fence
                long refused = fence.refused();
                await("a write stopped at the fence")
                        .atMost(Duration.ofMinutes(2))
                        .until(() -> fence.refused() > refused);
                assertThat(
                                h.controllerRequests(r -> r.isWrite())
                                        .subList(
                                                writes,
                                                h.controllerRequests(r -> r.isWrite()).size()))
                        .isEmpty();
                assertThat(h.client.configMaps().inNamespace("test-ns").withName("later").get())
                        .isNull();
            }
        }
    }

    /** Starts the controller running release {@code a} (4.1.0) and waits until it installed it. */
    static String web(String selector, String image) {
        return "apiVersion: apps/v1\n"
                + "kind: Deployment\n"
                + "metadata:\n"
                + "  name: web\n"
                + "  namespace: test-ns\n"
                + "  annotations:\n"
                + FakePayloads.INCLUDED
                + "spec:\n  selector: {matchLabels: "
                + selector
                + "}\n  template:\n    metadata: {labels: "
                + selector
                + "}\n"
                + "    spec:\n      containers: [{name: web, image: '"
                + image
                + "'}]\n";
    }

    static String operator(String name, String version) {
        return "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: "
                + name
                + "\n  annotations:\n"
                + FakePayloads.INCLUDED
                + "spec: {}\nstatus:\n  versions: [{name: operator, version: '"
                + version
                + "'}]\n";
    }

    private static Lease takeLease(ControllerHarness h, String holder) {
        return h.client
                .leases()
                .inNamespace("openshift-cluster-version")
                .withName("version")
                .edit(
                        l -> {
                            l.getSpec().setHolderIdentity(holder);
                            l.getSpec().setLeaseDurationSeconds(600);
                            l.getSpec().setRenewTime(ZonedDateTime.now(ZoneOffset.UTC));
                            return l;
                        });
    }

    @Test
    void
            anUpdateChangingAnImmutableSelectorCompletesWithoutARefusedWriteAndOperatorsArePreCreatedAtTheirOwnNode()
                    throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir)) {
            // run-level 20 holds two components, so it is a step of its own after run-level 10 (a
            // lone component would
            // join run-level 10's serial node, as upstream's graph does)
            String a =
                    h.payloads.release(
                            "4.1.0",
                            "4.1.0",
                            true,
                            Map.of(
                                    "0000_20_web_00_deployment.yaml",
                                    web("{app: web, tier: front}", "web:1"),
                                    "0000_20_late_00_clusteroperator.yaml",
                                    operator("late", "4.1.0")));
            String b =
                    h.payloads.release(
                            "4.1.1",
                            "4.1.1",
                            true,
                            Map.of(
                                    "0000_20_web_00_deployment.yaml",
                                    web("{app: web}", "web:2"),
                                    "0000_20_late_00_clusteroperator.yaml",
                                    operator("late", "4.1.1"),
                                    "0000_20_late_01_newcomer.yaml",
                                    operator("newcomer", "4.1.1")));
            h.start(ControllerHarness.options(a, dir.resolve("cache")));
            await("late pre-created")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.operatorExists("late"));
            h.report("late", "4.1.0");
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));

            h.holdOperator(true);
            h.requestUpdate("4.1.1", b, false);
            await().atMost(Duration.ofSeconds(60))
                    .until(
                            () -> h.condition("Progressing"),
                            c ->
                                    c.getMessage().contains("4.1.1")
                                            && c.getMessage().contains("waiting on test-operator"));
            // run-level 10 is not done: the ClusterOperator of run-level 20 is not there yet
            assertThat(h.operatorExists("newcomer")).isFalse();
            h.holdOperator(false);
            await("newcomer pre-created")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.operatorExists("newcomer"));
            h.report("newcomer", "4.1.1");
            h.report("late", "4.1.1");
            await("4.1.1 completed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.1"));

            var deployment =
                    h.client.apps().deployments().inNamespace("test-ns").withName("web").get();
            assertThat(
                            deployment
                                    .getSpec()
                                    .getTemplate()
                                    .getSpec()
                                    .getContainers()
                                    .get(0)
                                    .getImage())
                    .isEqualTo("web:2");
            assertThat(deployment.getSpec().getSelector().getMatchLabels())
                    .containsOnlyKeys("app", "tier");
            assertThat(h.server.invalidWrites()).isEmpty();
        }
    }

    private void installed(ControllerHarness h, String a) {
        h.start(ControllerHarness.options(a, dir.resolve("cache")));
        await("4.1.0 installed").atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.0"));
    }
}
