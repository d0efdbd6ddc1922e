package io.upshift.pools.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigBuilder;
import io.upshift.api.json.Mappers;
import io.upshift.api.schema.CrdSchema;
import io.upshift.pools.model.NodeAnnotations;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Config changes rolled out under the cluster's node disruption policies by the real pool
 * controller and agents: a change a policy says needs nothing updates every node without a cordon,
 * an eviction or a reboot; one no policy covers still drains and reboots; unit changes run their
 * systemd actions; a config the host cannot take leaves the node Unreconcilable.
 */
@Tag("e2e")
class NodeDisruptionTest {
    static final CrdSchema MC_CRD =
            CrdSchema.bundled("machineconfigurations.operator.openshift.io", "v1");

    @TempDir Path hosts;

    static void policy(PoolHarness h, String nodeDisruptionPolicyYaml) throws Exception {
        GenericKubernetesResource mc = new GenericKubernetesResource();
        mc.setApiVersion("operator.openshift.io/v1");
        mc.setKind("MachineConfiguration");
        mc.setMetadata(new ObjectMetaBuilder().withName("cluster").build());
        mc.setAdditionalProperty(
                "spec",
                Map.of(
                        "managementState",
                        "Managed",
                        "nodeDisruptionPolicy",
                        Mappers.JSON.convertValue(
                                Mappers.YAML.readTree(nodeDisruptionPolicyYaml), Map.class)));
        assertThat(MC_CRD.violations(mc)).isEmpty();
        h.client
                .genericKubernetesResources(MachineConfigurations.CONTEXT)
                .resource(mc)
                .createOr(existing -> existing.update());
    }

    static void machineConfig(
            PoolHarness h, String name, Map<String, Object> ignition, String kernelType) {
        Map<String, Object> config = new LinkedHashMap<>(ignition);
        config.put("ignition", Map.of("version", "3.2.0"));
        h.client
                .resources(MachineConfig.class)
                .resource(
                        new MachineConfigBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .addToLabels("machineconfiguration.openshift.io/role", "worker")
                                .endMetadata()
                                .withNewSpec()
                                .withConfig(config)
                                .withKernelType(kernelType)
                                .endSpec()
                                .build())
                .createOr(existing -> existing.update());
    }

    /** Events of that reason on the node, counted as the recorder counts repeats. */
    static int events(PoolHarness h, String node, String reason) {
        return h.client.v1().events().inNamespace("default").list().getItems().stream()
                .filter(
                        e ->
                                node.equals(e.getInvolvedObject().getName())
                                        && reason.equals(e.getReason()))
                .mapToInt(Event::getCount)
                .sum();
    }

    static String target(PoolHarness h) {
        return h.pool("worker").getSpec().getConfiguration().getName();
    }

    static void rollOut(PoolHarness h, String from) {
        await("a new target").atMost(Duration.ofSeconds(60)).until(() -> !from.equals(target(h)));
        await("every node on it").atMost(Duration.ofSeconds(60)).until(() -> h.settled("worker"));
    }

    @Test
    void aNonePolicyUpdatesEveryNodeWithoutCordonDrainOrRebootAndAnUncoveredFileStillReboots()
            throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            List<String> nodes = List.of("w0", "w1", "w2");
            h.pool("worker", 3, false);
            h.config("00-worker", "worker", "base", "os@1");
            for (int i = 0; i < nodes.size(); i++) h.node(nodes.get(i), "worker", "a", i);
            h.startAgents();
            h.startController("4.19.0");
            await("the first config")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker"));
            for (String n : nodes) h.createPod("app-" + n, n, "app", false);
            Map<String, Integer> drains = new ConcurrentHashMap<>();
            nodes.forEach(n -> drains.put(n, events(h, n, "Drain")));
            assertThat(drains.values())
                    .as("the first config drained every node")
                    .allMatch(c -> c == 1);

            policy(h, "files: [{path: /etc/upshift-test/motd, actions: [{type: None}]}]");
            Set<String> cordoned = ConcurrentHashMap.newKeySet();
            try (Watch watch =
                    h.client
                            .nodes()
                            .watch(
                                    new Watcher<>() {
                                        @Override
                                        public void eventReceived(Action action, Node node) {
                                            if (Boolean.TRUE.equals(
                                                    node.getSpec().getUnschedulable()))
                                                cordoned.add(node.getMetadata().getName());
                                        }

                                        @Override
                                        public void onClose(WatcherException cause) {}
                                    })) {
                h.server.requests().clear();
                String first = target(h);
                h.config("motd", "worker", "hello", "");
                rollOut(h, first);
                assertThat(cordoned).as("nodes cordoned").isEmpty();
            }
            String second = target(h);
            assertThat(h.server.requests().matching(r -> r.path().contains("/eviction")))
                    .as("evictions")
                    .isEmpty();
            for (String n : nodes) {
                assertThat(Files.readString(hosts.resolve(n + "/etc/upshift-test/motd")))
                        .isEqualTo("hello");
                assertThat(h.machines.get(n).reboots()).as(n + " reboots").isEqualTo(1);
                assertThat(h.machines.get(n).osImage()).isEqualTo("os@1");
                assertThat(events(h, n, "Drain")).as(n + " drains").isEqualTo(1);
                assertThat(events(h, n, "SkipReboot")).as(n + " SkipReboot events").isEqualTo(1);
                assertThat(h.client.pods().inNamespace("shop").withName("app-" + n).get())
                        .as("app-" + n)
                        .isNotNull();
                assertThat(h.annotation(n, NodeAnnotations.CURRENT_CONFIG)).isEqualTo(second);
                assertThat(h.annotation(n, NodeAnnotations.STATE)).isEqualTo(NodeAnnotations.DONE);
            }
            await("the pool's status")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.pool("worker").getStatus() != null
                                            && Integer.valueOf(3)
                                                    .equals(
                                                            h.pool("worker")
                                                                    .getStatus()
                                                                    .getUpdatedMachineCount())
                                            && second.equals(
                                                    h.pool("worker")
                                                            .getStatus()
                                                            .getConfiguration()
                                                            .getName()));

            // the controller's MachineConfiguration status: the defaults and the spec merged, valid
            // against the CRD
            await("clusterPolicies")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    Mappers.JSON
                                            .valueToTree(
                                                    h.client
                                                            .genericKubernetesResources(
                                                                    MachineConfigurations.CONTEXT)
                                                            .withName("cluster")
                                                            .get())
                                            .at(
                                                    "/status/nodeDisruptionPolicyStatus/clusterPolicies/files")
                                            .toString()
                                            .contains("/etc/upshift-test/motd"));
            GenericKubernetesResource mc =
                    h.client
                            .genericKubernetesResources(MachineConfigurations.CONTEXT)
                            .withName("cluster")
                            .get();
            assertThat(MC_CRD.violations(mc)).isEmpty();
            assertThat(
                            Mappers.JSON
                                    .valueToTree(mc)
                                    .at("/status/nodeDisruptionPolicyStatus/clusterPolicies/files"))
                    .hasSize(9);

            // a file no policy covers: drained and rebooted as before
            h.config("other", "worker", "x", "");
            rollOut(h, second);
            for (String n : nodes) {
                assertThat(Files.readString(hosts.resolve(n + "/etc/upshift-test/other")))
                        .isEqualTo("x");
                assertThat(h.machines.get(n).reboots()).as(n + " reboots").isEqualTo(2);
                assertThat(events(h, n, "Drain")).as(n + " drains").isEqualTo(2);
                assertThat(h.client.pods().inNamespace("shop").withName("app-" + n).get())
                        .as("app-" + n + " evicted")
                        .isNull();
            }
            assertThat(h.server.requests().matching(r -> r.path().contains("/eviction")))
                    .hasSize(3);
        }
    }

    @Test
    void unitKeyAndDrainPoliciesRunTheirActionsWithoutAReboot() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            h.settledPoolOfOne("worker", "w0", "base", "os@1", "4.19.0");
            policy(
                    h,
                    """
                    units:
                    - name: app.service
                      actions: [{type: DaemonReload}, {type: Restart, restart: {serviceName: app.service}}]
                    """);
            String unit =
                    "[Unit]\n"
                            + "Description=app\n"
                            + "[Service]\n"
                            + "ExecStart=/usr/bin/app\n"
                            + "[Install]\n"
                            + "WantedBy=multi-user.target\n";
            String first = target(h);
            machineConfig(
                    h,
                    "50-app",
                    Map.of(
                            "systemd",
                            Map.of(
                                    "units",
                                    List.of(
                                            Map.of(
                                                    "name",
                                                    "app.service",
                                                    "enabled",
                                                    true,
                                                    "contents",
                                                    unit,
                                                    "dropins",
                                                    List.of(
                                                            Map.of(
                                                                    "name",
                                                                    "10-env.conf",
                                                                    "contents",
                                                                    "[Service]\n"
                                                                        + "Environment=A=1\n"))))),
                            "passwd",
                            Map.of(
                                    "users",
                                    List.of(
                                            Map.of(
                                                    "name",
                                                    "core",
                                                    "sshAuthorizedKeys",
                                                    List.of("ssh-ed25519 AAAA one"))))),
                    null);
            rollOut(h, first);
            Path root = hosts.resolve("w0");
            assertThat(Files.readString(root.resolve("etc/systemd/system/app.service")))
                    .isEqualTo(unit);
            assertThat(
                            Files.readString(
                                    root.resolve("etc/systemd/system/app.service.d/10-env.conf")))
                    .isEqualTo("[Service]\nEnvironment=A=1\n");
            assertThat(
                            Files.readSymbolicLink(
                                    root.resolve(
                                            "etc/systemd/system/multi-user.target.wants/app.service")))
                    .isEqualTo(Path.of("/etc/systemd/system/app.service"));
            assertThat(Files.readString(root.resolve("home/core/.ssh/authorized_keys.d/ignition")))
                    .isEqualTo("ssh-ed25519 AAAA one\n");
            assertThat(
                            PosixFilePermissions.toString(
                                    Files.getPosixFilePermissions(
                                            root.resolve(
                                                    "home/core/.ssh/authorized_keys.d/ignition"))))
                    .isEqualTo("rw-------");
            assertThat(h.machines.get("w0").systemctl())
                    .containsExactly("daemon-reload", "restart app.service");
            assertThat(h.machines.get("w0").reboots()).isEqualTo(1);
            assertThat(events(h, "w0", "ServiceRestart")).isEqualTo(1);

            // disabled, its drop-in gone, the keys changed
            String second = target(h);
            machineConfig(
                    h,
                    "50-app",
                    Map.of(
                            "systemd",
                            Map.of(
                                    "units",
                                    List.of(
                                            Map.of(
                                                    "name",
                                                    "app.service",
                                                    "enabled",
                                                    false,
                                                    "contents",
                                                    unit))),
                            "passwd",
                            Map.of(
                                    "users",
                                    List.of(
                                            Map.of(
                                                    "name",
                                                    "core",
                                                    "sshAuthorizedKeys",
                                                    List.of("ssh-ed25519 AAAA two"))))),
                    null);
            rollOut(h, second);
            assertThat(root.resolve("etc/systemd/system/multi-user.target.wants/app.service"))
                    .doesNotExist();
            assertThat(root.resolve("etc/systemd/system/app.service.d/10-env.conf")).doesNotExist();
            assertThat(Files.readString(root.resolve("home/core/.ssh/authorized_keys.d/ignition")))
                    .isEqualTo("ssh-ed25519 AAAA two\n");
            assertThat(h.machines.get("w0").systemctl())
                    .containsExactly(
                            "daemon-reload",
                            "restart app.service",
                            "daemon-reload",
                            "restart app.service");
            assertThat(h.machines.get("w0").reboots()).isEqualTo(1);

            // a file under a Drain policy: cordoned and drained, not rebooted
            policy(
                    h,
                    """
                    files: [{path: /etc/upshift-test/drained, actions: [{type: Drain}]}]
                    """);
            Set<String> cordoned = ConcurrentHashMap.newKeySet();
            try (Watch watch =
                    h.client
                            .nodes()
                            .watch(
                                    new Watcher<>() {
                                        @Override
                                        public void eventReceived(Action action, Node node) {
                                            if (Boolean.TRUE.equals(
                                                    node.getSpec().getUnschedulable()))
                                                cordoned.add(node.getMetadata().getName());
                                        }

                                        @Override
                                        public void onClose(WatcherException cause) {}
                                    })) {
                String before = target(h);
                h.config("drained", "worker", "d", "");
                rollOut(h, before);
            }
            assertThat(cordoned).containsExactly("w0");
            assertThat(events(h, "w0", "Drain")).isEqualTo(2);
            assertThat(h.machines.get("w0").reboots()).isEqualTo(1);
            assertThat(h.annotation("w0", NodeAnnotations.LAST_APPLIED_DRAIN))
                    .isEqualTo("uncordon-" + target(h));

            // a kernel argument: the OS changes, so the node reboots into it
            String third = target(h);
            h.client
                    .resources(MachineConfig.class)
                    .resource(
                            new MachineConfigBuilder()
                                    .withNewMetadata()
                                    .withName("60-kargs")
                                    .addToLabels("machineconfiguration.openshift.io/role", "worker")
                                    .endMetadata()
                                    .withNewSpec()
                                    .withKernelArguments("nosmt")
                                    .withExtensions("usbguard")
                                    .endSpec()
                                    .build())
                    .create();
            rollOut(h, third);
            assertThat(h.machines.get("w0").reboots()).isEqualTo(2);
            assertThat(h.machines.get("w0").os().kernelArguments()).containsExactly("nosmt");
            assertThat(h.machines.get("w0").os().extensions()).containsExactly("usbguard");
        }
    }

    @Test
    void aConfigTheHostCannotTakeLeavesTheNodeUnreconcilableUntilItIsTakenBack() throws Exception {
        try (PoolHarness h = new PoolHarness(hosts)) {
            String first = h.settledPoolOfOne("worker", "w0", "base", "os@1", "4.19.0");
            machineConfig(h, "50-rt", Map.of(), "rt");
            await("a new target")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> !first.equals(target(h)));
            String bad = target(h);
            await("w0 Unreconcilable")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    "Unreconcilable"
                                            .equals(h.annotation("w0", NodeAnnotations.STATE)));
            assertThat(h.annotation("w0", NodeAnnotations.REASON))
                    .isEqualTo(
                            "can't reconcile config "
                                    + first
                                    + " with "
                                    + bad
                                    + ": configs "
                                    + first
                                    + ", "
                                    + bad
                                    + " are not reconcilable: validating new MachineConfig \""
                                    + bad
                                    + "\" failed: kernelType=rt is invalid");
            assertThat(events(h, "w0", "FailedToReconcile")).isEqualTo(1);
            await("the pool's NodeDegraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.conditionTrue("worker", "NodeDegraded"));
            assertThat(h.pool("worker").getStatus().getDegradedMachineCount()).isEqualTo(1);
            assertThat(h.machines.get("w0").reboots()).isEqualTo(1);
            assertThat(h.annotation("w0", NodeAnnotations.CURRENT_CONFIG)).isEqualTo(first);
            // its MachineConfigNode: the validation failed (upstream's words), then degraded (which
            // names the desired config, as upstream's)
            var mcn =
                    h.client
                            .resources(
                                    io.fabric8.openshift.api.model.machineconfiguration.v1
                                            .MachineConfigNode.class)
                            .withName("w0")
                            .get();
            assertThat(PoolHarness.mcnCondition(mcn, "UpdatePrepared"))
                    .satisfies(
                            c -> {
                                assertThat(c.getStatus()).isEqualTo("Unknown");
                                assertThat(c.getMessage())
                                        .isEqualTo(
                                                "Update Failed compatibility validation."
                                                        + " MachineConfigs "
                                                        + first
                                                        + " and "
                                                        + bad
                                                        + " are not compatible. Err: configs "
                                                        + first
                                                        + ", "
                                                        + bad
                                                        + " are not reconcilable: validating new"
                                                        + " MachineConfig \""
                                                        + bad
                                                        + "\" failed: kernelType=rt is invalid");
                            });
            assertThat(PoolHarness.mcnCondition(mcn, "NodeDegraded").getMessage())
                    .isEqualTo(
                            "Node w0 upgrade failure. "
                                    + h.annotation("w0", NodeAnnotations.REASON));
            assertThat(mcn.getStatus().getConfigVersion().getDesired()).isEqualTo(bad);
            assertThat(mcn.getStatus().getConfigVersion().getCurrent()).isEqualTo(first);
            assertThat(mcn.getSpec().getConfigVersion().getDesired()).isEqualTo(bad);

            h.client.resources(MachineConfig.class).withName("50-rt").delete();
            await("back on its config, Done")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.settled("worker") && first.equals(target(h)));
            await("the pool no longer degraded")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> !h.conditionTrue("worker", "NodeDegraded"));
            await("w0 reported Updated on its config")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> {
                                var back =
                                        h.client
                                                .resources(
                                                        io.fabric8.openshift.api.model
                                                                .machineconfiguration.v1
                                                                .MachineConfigNode.class)
                                                .withName("w0")
                                                .get();
                                return MachineConfigNodeRolloutTest.phase(back)
                                                .equals("Updated=True")
                                        && first.equals(
                                                back.getStatus().getConfigVersion().getDesired());
                            });
        }
    }
}
