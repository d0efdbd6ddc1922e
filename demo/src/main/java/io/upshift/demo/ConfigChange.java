package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.json.Mappers;
import io.upshift.pools.controller.MachineConfigurations;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.OneFileConfig;
import io.upshift.pools.model.PoolMembers;
import io.upshift.runtime.kube.MergePatch;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's config change after the update, as an administrator makes it: a node disruption policy
 * of None for {@value #PATH} in the cluster's MachineConfiguration, then a MachineConfig per pool
 * changing that file. The pool controller renders and rolls it out; every agent, finding that the
 * change needs no reboot, writes the file and nothing more. What they did is counted from what
 * happened, not from the policy: nodes on the new config, Drain events recorded on the nodes, and
 * reboots of the simulated hosts.
 */
public final class ConfigChange {
    public static final String PATH = "/etc/upshift-demo/motd";

    /** Nodes on the new config, and of them how many were drained and rebooted for it. */
    public record Result(int updated, int drained, int rebooted) {
        /** {@code config change: 9 nodes updated, 0 drained, 0 rebooted}. */
        public String line() {
            return "config change: "
                    + updated
                    + " nodes updated, "
                    + drained
                    + " drained, "
                    + rebooted
                    + " rebooted";
        }
    }

    private final KubernetesClient client;
    private final DemoNodes nodes;
    private final Clock clock;

    ConfigChange(KubernetesClient client, DemoNodes nodes, Clock clock) {
        this.client = client;
        this.nodes = nodes;
        this.clock = clock;
    }

    /**
     * Makes the change, waits until every pool runs it on all its nodes (calling {@code tick} about
     * once a second).
     */
    Result run(String version, Duration timeout, Runnable tick) throws InterruptedException {
        Map<String, String> before = targets();
        Map<String, Integer> reboots = nodes.reboots(), drains = drains();
        allowWithoutReboot();
        for (String pool : before.keySet()) machineConfig(pool, version);
        Instant deadline = clock.instant().plus(timeout);
        while (!rolledOut(before)) {
            if (!clock.instant().isBefore(deadline))
                throw new IllegalStateException(
                        "the config change did not reach every node in " + timeout);
            tick.run();
            Thread.sleep(1000);
        }
        Map<String, Integer> rebootsAfter = nodes.reboots(), drainsAfter = drains();
        int updated = 0, drained = 0, rebooted = 0;
        for (Map.Entry<String, List<Node>> pool : members().entrySet()) {
            String target = targets().get(pool.getKey());
            for (Node n : pool.getValue()) {
                String name = n.getMetadata().getName();
                if (target.equals(annotation(n, NodeAnnotations.CURRENT_CONFIG))
                        && NodeAnnotations.DONE.equals(annotation(n, NodeAnnotations.STATE)))
                    updated++;
                if (drainsAfter.getOrDefault(name, 0) > drains.getOrDefault(name, 0)) drained++;
                if (rebootsAfter.getOrDefault(name, 0) > reboots.getOrDefault(name, 0)) rebooted++;
            }
        }
        return new Result(updated, drained, rebooted);
    }

    /**
     * The policy, added to the cluster's MachineConfiguration (which the pool controller creates;
     * made here if it is not there yet), as a merge patch conditional on the object as read.
     */
    private void allowWithoutReboot() {
        Map<String, Object> policy =
                Map.of("path", PATH, "actions", List.of(Map.of("type", "None")));
        var resource =
                client.genericKubernetesResources(MachineConfigurations.CONTEXT)
                        .withName(MachineConfigurations.NAME);
        GenericKubernetesResource mc = resource.get();
        if (mc == null) {
            mc = new GenericKubernetesResource();
            mc.setApiVersion("operator.openshift.io/v1");
            mc.setKind("MachineConfiguration");
            mc.setMetadata(new ObjectMetaBuilder().withName(MachineConfigurations.NAME).build());
            mc.setAdditionalProperty(
                    "spec",
                    Map.of(
                            "managementState",
                            "Managed",
                            "nodeDisruptionPolicy",
                            Map.of("files", List.of(policy))));
            client.genericKubernetesResources(MachineConfigurations.CONTEXT).resource(mc).create();
            return;
        }
        List<Object> files = new ArrayList<>();
        Mappers.JSON
                .valueToTree(mc)
                .at("/spec/nodeDisruptionPolicy/files")
                .forEach(
                        f -> {
                            if (!PATH.equals(f.path("path").asText()))
                                files.add(Mappers.JSON.convertValue(f, Map.class));
                        });
        files.add(policy);
        resource.patch(
                MergePatch.CONTEXT,
                MergePatch.against(mc).set("spec.nodeDisruptionPolicy.files", files).toString());
    }

    private void machineConfig(String pool, String version) {
        client.resources(MachineConfig.class)
                .resource(
                        OneFileConfig.of(
                                "99-" + pool + "-upshift-demo-motd",
                                pool,
                                PATH,
                                "Welcome to the Upshift demo, on release " + version + ".\n"))
                .createOr(existing -> existing.update());
    }

    /** Every pool has a new target, and every node of it runs that target, Done. */
    private boolean rolledOut(Map<String, String> before) {
        Map<String, String> now = targets();
        for (Map.Entry<String, List<Node>> pool : members().entrySet()) {
            String target = now.getOrDefault(pool.getKey(), "");
            if (target.isEmpty() || target.equals(before.get(pool.getKey()))) return false;
            for (Node n : pool.getValue()) {
                if (!target.equals(annotation(n, NodeAnnotations.CURRENT_CONFIG))
                        || !NodeAnnotations.DONE.equals(annotation(n, NodeAnnotations.STATE)))
                    return false;
            }
        }
        return true;
    }

    private Map<String, String> targets() {
        Map<String, String> out = new HashMap<>();
        for (MachineConfigPool p : client.resources(MachineConfigPool.class).list().getItems()) {
            out.put(
                    p.getMetadata().getName(),
                    p.getSpec().getConfiguration() == null
                            ? ""
                            : p.getSpec().getConfiguration().getName());
        }
        return out;
    }

    private Map<String, List<Node>> members() {
        return PoolMembers.assign(
                client.resources(MachineConfigPool.class).list().getItems(),
                client.nodes().list().getItems());
    }

    /** Drains each node's agent recorded so far: its Drain events, repeats counted. */
    private Map<String, Integer> drains() {
        Map<String, Integer> out = new HashMap<>();
        for (Event e : client.v1().events().inNamespace("default").list().getItems()) {
            if ("Node".equals(e.getInvolvedObject().getKind()) && "Drain".equals(e.getReason())) {
                out.merge(
                        e.getInvolvedObject().getName(),
                        e.getCount() == null ? 1 : e.getCount(),
                        Integer::sum);
            }
        }
        return out;
    }

    private static String annotation(Node n, String key) {
        return n.getMetadata().getAnnotations() == null
                ? null
                : n.getMetadata().getAnnotations().get(key);
    }
}
