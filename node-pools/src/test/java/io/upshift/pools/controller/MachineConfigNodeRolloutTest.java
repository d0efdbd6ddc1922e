package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.upshift.api.schema.CrdSchema;
import io.upshift.pools.agent.SimulatedHost;
import io.upshift.pools.model.NodeAnnotations;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * MachineConfigNodes kept by the pool controller and reported into by the node agents, through
 * rollouts.
 */
@Tag("e2e")
class MachineConfigNodeRolloutTest {
    static final CrdSchema CRD =
            CrdSchema.bundled("machineconfignodes.machineconfiguration.openshift.io", "v1");

    @TempDir Path hosts;

    /** Every version of every MachineConfigNode the API server shows, in order, per node. */
    static final class Recorder implements Watcher<MachineConfigNode>, AutoCloseable {
        final Map<String, List<MachineConfigNode>> seen = new ConcurrentHashMap<>();
        final List<String> deleted = new CopyOnWriteArrayList<>();
        final Watch watch;

        Recorder(PoolHarness h) {
            watch = h.client.resources(MachineConfigNode.class).watch(this);
        }

        @Override
        public void eventReceived(Action action, MachineConfigNode mcn) {
            if (action == Action.DELETED) deleted.add(mcn.getMetadata().getName());
            else
                seen.computeIfAbsent(mcn.getMetadata().getName(), k -> new CopyOnWriteArrayList<>())
                        .add(mcn);
        }

        @Override
        public void onClose(WatcherException cause) {}

        /**
         * The node's reports from its agent (status changes), from the {@code from}-th version on.
         */
        List<MachineConfigNode> reports(String node, int from) {
            List<MachineConfigNode> all = seen.getOrDefault(node, List.of());
            List<MachineConfigNode> out = new ArrayList<>();
            for (int i = Math.max(from, 1); i < all.size(); i++) {
                if (!String.valueOf(all.get(i).getStatus())
                        .equals(String.valueOf(all.get(i - 1).getStatus()))) out.add(all.get(i));
            }
            return out;
        }

        /**
         * The desired configs the node's spec named, each change once: a config taken back shows
         * twice.
         */
        List<String> desiredConfigs(String node) {
            List<String> out = new ArrayList<>();
            for (MachineConfigNode m : seen.getOrDefault(node, List.of())) {
                String d = m.getSpec().getConfigVersion().getDesired();
                if (out.isEmpty() || !out.get(out.size() - 1).equals(d)) out.add(d);
            }
            return out;
        }

        int versions(String node) {
            return seen.getOrDefault(node, List.of()).size();
        }

        @Override
        public void close() {
            watch.close();
        }
    }

    /**
     * "Type=Status" of each condition not False, as {@code oc get mcn -o wide} would show the
     * phase.
     */
    static String phase(MachineConfigNode mcn) {
        return mcn.getStatus().getConditions().stream()
                .filter(c -> !"False".equals(c.getStatus()))
                .map(c -> c.getType() + "=" + c.getStatus())
                .collect(Collectors.joining(" "));
    }

    static int statusWrites(PoolHarness h, String node) {
        return h.server
                .requests()
                .matching(
                        r ->
                                r.method().equals("PUT")
                                        && r.path()
                                                .startsWith(
                                                        "/apis/machineconfiguration.openshift.io/v1/machineconfignodes/"
                                                                + node
                                                                + "/status"))
                .size();
    }

    @Test
    void aRebootingRolloutReportsUpstreamsPhasesInOrderOneWritePerPhase() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts);
                Recorder r = new Recorder(h)) {
            String first = h.settledPoolOfOne("worker", "w0", "one", "os@sha256:1", "4.19.0");
            await("w0 reported Updated")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h
                                            .client
                                            .resources(MachineConfigNode.class)
                                            .withName("w0")
                                            .get()
                                            .getStatus()
                                            .getConditions()
                                            .stream()
                                            .anyMatch(
                                                    c ->
                                                            c.getType().equals("Updated")
                                                                    && c.getStatus()
                                                                            .equals("True")));
            MachineConfigNode settled =
                    h.client.resources(MachineConfigNode.class).withName("w0").get();
            String uid = h.client.nodes().withName("w0").get().getMetadata().getUid();
            assertThat(settled.getMetadata().getOwnerReferences())
                    .singleElement()
                    .satisfies(
                            o -> {
                                assertThat(o.getKind()).isEqualTo("Node");
                                assertThat(o.getUid()).isEqualTo(uid);
                            });
            assertThat(settled.getStatus().getConfigVersion().getCurrent()).isEqualTo(first);
            int from = r.versions("w0");
            int writes = statusWrites(h, "w0");

            h.config("00-worker", "worker", "two", "os@sha256:2");
            await("the second config on w0")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !first.equals(
                                                    h.annotation(
                                                            "w0", NodeAnnotations.CURRENT_CONFIG))
                                            && h.settled("worker"));
            String second = h.pool("worker").getSpec().getConfiguration().getName();
            await("w0 reported Updated again")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                List<MachineConfigNode> reports = r.reports("w0", from);
                                return !reports.isEmpty()
                                        && phase(reports.get(reports.size() - 1))
                                                .equals("Updated=True");
                            });

            List<MachineConfigNode> reports = r.reports("w0", from);
            assertThat(reports)
                    .extracting(MachineConfigNodeRolloutTest::phase)
                    .containsExactly(
                            // Working, cordoned: prepared and draining
                            "UpdatePrepared=True UpdateExecuted=Unknown Drained=Unknown"
                                    + " Cordoned=True",
                            // drained, writing files and the OS
                            "UpdatePrepared=True UpdateExecuted=Unknown Drained=True"
                                    + " AppliedFilesAndOS=Unknown Cordoned=True",
                            // Rebooting
                            "UpdatePrepared=True UpdateExecuted=True Drained=True"
                                    + " AppliedFilesAndOS=True Cordoned=True RebootedNode=Unknown",
                            // Done: rebooted, resumed, uncordoned
                            "UpdatePrepared=True UpdateExecuted=True UpdateComplete=True"
                                + " Resumed=True Drained=True AppliedFilesAndOS=True Cordoned=True"
                                + " RebootedNode=True Uncordoned=True",
                            "Updated=True");
            MachineConfigNode working = reports.get(0);
            assertThat(PoolHarness.mcnCondition(working, "Updated").getMessage())
                    .isEqualTo("Node w0 needs an update");
            assertThat(PoolHarness.mcnCondition(working, "UpdatePrepared").getMessage())
                    .isEqualTo(
                            "Update Compatible. Post Cfg Actions: [Reboot] Drain Required: true");
            assertThat(PoolHarness.mcnCondition(working, "Drained").getMessage())
                    .isEqualTo(
                            "Draining node. The drain will not be complete until desired drainer"
                                    + " drain-"
                                    + second
                                    + " matches current drainer uncordon-"
                                    + first);
            assertThat(working.getStatus().getConfigVersion().getCurrent()).isEqualTo(first);
            assertThat(working.getStatus().getConfigVersion().getDesired()).isEqualTo(second);
            assertThat(PoolHarness.mcnCondition(reports.get(2), "AppliedFilesAndOS").getMessage())
                    .isEqualTo(
                            "Applied files and new OS config to node. OS did  need an update. SSH"
                                    + " Keys did not need an update");
            assertThat(PoolHarness.mcnCondition(reports.get(3), "NodeDegraded").getMessage())
                    .isEqualTo("Node w0 upgrade succeeded");
            MachineConfigNode updated = reports.get(4);
            assertThat(PoolHarness.mcnCondition(updated, "RebootedNode").getMessage())
                    .isEqualTo("Action during update to " + second + ": Node has rebooted");
            assertThat(updated.getStatus().getConfigVersion().getCurrent()).isEqualTo(second);
            assertThat(updated.getSpec().getConfigVersion().getDesired()).isEqualTo(second);
            assertThat(updated.getSpec().getPool().getName()).isEqualTo("worker");
            assertThat(updated.getStatus().getObservedGeneration())
                    .isEqualTo(updated.getMetadata().getGeneration());

            assertThat(r.seen.get("w0")).allSatisfy(m -> assertThat(CRD.violations(m)).isEmpty());
            assertThat(statusWrites(h, "w0") - writes)
                    .as("one status write per phase")
                    .isEqualTo(5);
            // no writes while idle, however often the agent wakes
            int settledWrites = statusWrites(h, "w0");
            long steps = h.agents.get("w0").steps();
            h.client
                    .nodes()
                    .withName("w0")
                    .edit(
                            n -> {
                                n.getMetadata().getLabels().put("touched", "yes");
                                return n;
                            });
            // a step of the agent that began after the change ended (it looks every 100 ms here)
            await("the agent looking at the touched node")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.agents.get("w0").steps() >= steps + 2);
            assertThat(statusWrites(h, "w0")).isEqualTo(settledWrites);
        }
    }

    @Test
    void aRebootlessChangeReportsItsPostActionAndANodeThatIsGoneLosesItsObject() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts);
                Recorder r = new Recorder(h)) {
            NodeDisruptionTest.policy(
                    h, "files: [{path: /etc/upshift-test/00-worker, actions: [{type: None}]}]");
            String first = h.settledPoolOfOne("worker", "w0", "one", "os@sha256:1", "4.19.0");
            await("w0 reported Updated")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !r.reports("w0", 0).isEmpty()
                                            && phase(
                                                            r.reports("w0", 0)
                                                                    .get(
                                                                            r.reports("w0", 0)
                                                                                            .size()
                                                                                    - 1))
                                                    .equals("Updated=True"));
            int from = r.versions("w0");
            int writes = statusWrites(h, "w0");

            h.config("00-worker", "worker", "two", "os@sha256:1"); // the file alone: None
            await("the second config on w0")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !first.equals(
                                                    h.annotation(
                                                            "w0", NodeAnnotations.CURRENT_CONFIG))
                                            && h.settled("worker"));
            await("w0 reported Updated again")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                List<MachineConfigNode> reports = r.reports("w0", from);
                                return !reports.isEmpty()
                                        && phase(reports.get(reports.size() - 1))
                                                .equals("Updated=True");
                            });
            List<MachineConfigNode> reports = r.reports("w0", from);
            assertThat(reports)
                    .extracting(MachineConfigNodeRolloutTest::phase)
                    .containsExactly(
                            "UpdatePrepared=True UpdateExecuted=Unknown AppliedFilesAndOS=Unknown",
                            "UpdatePrepared=True UpdateExecuted=True UpdatePostActionComplete=True"
                                    + " UpdateComplete=True Resumed=True AppliedFilesAndOS=True"
                                    + " Uncordoned=True",
                            "Updated=True");
            assertThat(PoolHarness.mcnCondition(reports.get(0), "Drained").getMessage())
                    .isEqualTo("Node Drain Not required for this update.");
            assertThat(PoolHarness.mcnCondition(reports.get(0), "UpdatePrepared").getMessage())
                    .isEqualTo("Update Compatible. Post Cfg Actions: [None] Drain Required: false");
            assertThat(PoolHarness.mcnCondition(reports.get(1), "UpdatePostActionComplete"))
                    .extracting(Condition::getReason, Condition::getMessage)
                    .containsExactly("None", "Changes do not require a reboot");
            assertThat(statusWrites(h, "w0") - writes).isEqualTo(3);
            assertThat(r.seen.get("w0")).allSatisfy(m -> assertThat(CRD.violations(m)).isEmpty());

            h.agents.remove("w0").close();
            h.client.nodes().withName("w0").delete();
            await("w0's MachineConfigNode deleted with it")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.client.resources(MachineConfigNode.class).withName("w0").get()
                                            == null);
        }
    }

    @Test
    void anObjectDeletedMidUpdateIsMadeAnewAndReportedInFull() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts);
                Recorder r = new Recorder(h)) {
            String first = h.settledPoolOfOne("worker", "w0", "one", "os@sha256:1", "4.19.0");
            int from = r.versions("w0");
            h.config("00-worker", "worker", "two", "os@sha256:2");
            await("w0 reported Working")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    r.reports("w0", from).stream()
                                            .anyMatch(m -> phase(m).contains("Cordoned=True")));
            h.client.resources(MachineConfigNode.class).withName("w0").delete();
            await("the second config on w0")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    !first.equals(
                                                    h.annotation(
                                                            "w0", NodeAnnotations.CURRENT_CONFIG))
                                            && h.settled("worker"));
            String second = h.pool("worker").getSpec().getConfiguration().getName();
            await("w0's new object reported Updated on the second config")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                MachineConfigNode m =
                                        h.client
                                                .resources(MachineConfigNode.class)
                                                .withName("w0")
                                                .get();
                                return m != null
                                        && m.getStatus() != null
                                        && phase(m).equals("Updated=True")
                                        && second.equals(
                                                m.getStatus().getConfigVersion().getCurrent());
                            });
            MachineConfigNode now =
                    h.client.resources(MachineConfigNode.class).withName("w0").get();
            // the steps before the object was made anew are there too: the drain, the files and OS,
            // the reboot
            assertThat(PoolHarness.mcnCondition(now, "Drained").getMessage())
                    .startsWith("Action during update to " + second + ": Drained node.");
            assertThat(PoolHarness.mcnCondition(now, "RebootedNode").getMessage())
                    .isEqualTo("Action during update to " + second + ": Node has rebooted");
            assertThat(CRD.violations(now)).isEmpty();
        }
    }

    @Test
    void agentsKilledMidUpdateLeaveEveryNodeReportedUpdatedAndEveryVersionValid() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts);
                Recorder r = new Recorder(h)) {
            h.pool("worker", 2, false);
            h.config("00-worker", "worker", "one", "os@sha256:1");
            for (int i = 0; i < 4; i++) {
                h.node("w" + i, "worker", "a", 10 - i);
                h.machines.put("w" + i, new SimulatedHost(Duration.ofMillis(400)));
            }
            h.startAgents();
            h.startController("4.19.0");
            await("the first config")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            String first = h.pool("worker").getSpec().getConfiguration().getName();

            h.config("00-worker", "worker", "two", "os@sha256:2");
            Random random = new Random(7);
            for (int kill = 0; kill < 6; kill++) {
                Thread.sleep(100 + random.nextInt(300));
                String victim = "w" + random.nextInt(4);
                h.agents.remove(victim).close(); // killed: mid-drain, mid-write, mid-reboot
                h.startAgent(victim);
            }
            await("the second config on every node")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.settled("worker")
                                            && !first.equals(
                                                    h.pool("worker")
                                                            .getSpec()
                                                            .getConfiguration()
                                                            .getName()));
            String second = h.pool("worker").getSpec().getConfiguration().getName();
            await("every node reported Updated on the second config")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h
                                            .client
                                            .resources(MachineConfigNode.class)
                                            .list()
                                            .getItems()
                                            .stream()
                                            .allMatch(
                                                    m ->
                                                            phase(m).equals("Updated=True")
                                                                    && second.equals(
                                                                            m.getStatus()
                                                                                    .getConfigVersion()
                                                                                    .getCurrent())
                                                                    && second.equals(
                                                                            m.getStatus()
                                                                                    .getConfigVersion()
                                                                                    .getDesired())));
            for (int i = 0; i < 4; i++) {
                String node = "w" + i;
                assertThat(r.seen.get(node))
                        .allSatisfy(m -> assertThat(CRD.violations(m)).isEmpty());
                // the spec names each config the node was told once, in order (w0 and w1 were told
                // theirs at creation)
                assertThat(r.desiredConfigs(node))
                        .as(node)
                        .isIn(List.of("not-yet-set", first, second), List.of(first, second));
                // never reported Updated on a config it did not run
                assertThat(r.reports(node, 0))
                        .filteredOn(m -> phase(m).equals("Updated=True"))
                        .allSatisfy(
                                m ->
                                        assertThat(m.getStatus().getConfigVersion().getCurrent())
                                                .isEqualTo(
                                                        m.getStatus()
                                                                .getConfigVersion()
                                                                .getDesired()));
                assertThat(statusWrites(h, node))
                        .as(node + "'s status writes over two rollouts and the kills")
                        .isLessThanOrEqualTo(30);
            }
        }
    }
}
