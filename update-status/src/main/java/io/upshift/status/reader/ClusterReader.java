package io.upshift.status.reader;

import io.fabric8.kubernetes.api.model.Event;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.runtime.kube.ApiException;
import io.upshift.status.model.Alert;
import io.upshift.status.model.AssessmentException;
import io.upshift.status.model.ClusterState;
import io.upshift.status.model.DrainBlocks;
import io.upshift.status.snapshot.Snapshot;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;

/** Reads what the status engine needs from a live API server, one request per kind. */
public final class ClusterReader {
    private static final String CURRENT_CONFIG = "machineconfiguration.openshift.io/currentConfig";
    private static final String DESIRED_CONFIG = "machineconfiguration.openshift.io/desiredConfig";

    private final KubernetesClient client;

    public ClusterReader(KubernetesClient client) {
        this.client = client;
    }

    public ClusterState read(Optional<List<Alert>> alerts) {
        ClusterVersion cv =
                call(
                        client,
                        "clusterversions.config.openshift.io/version",
                        () -> client.resources(ClusterVersion.class).withName("version").get());
        if (cv == null) {
            throw new AssessmentException(
                    "no cluster version information available - you must be connected to an"
                            + " OpenShift version 4 server to fetch the current version");
        }
        List<ClusterOperator> operators =
                call(
                        client,
                        "clusteroperators.config.openshift.io",
                        () -> client.resources(ClusterOperator.class).list().getItems());
        List<MachineConfigPool> pools =
                call(
                        client,
                        "machineconfigpools.machineconfiguration.openshift.io",
                        () -> client.resources(MachineConfigPool.class).list().getItems());
        List<Node> nodes = call(client, "nodes", () -> client.nodes().list().getItems());
        // Only the configs nodes refer to: rendered configs are large, and clusters keep many old
        // ones.
        Set<String> names = new LinkedHashSet<>();
        for (Node node : nodes) {
            Map<String, String> a = node.getMetadata().getAnnotations();
            if (a != null) {
                for (String key : List.of(CURRENT_CONFIG, DESIRED_CONFIG)) {
                    String name = a.get(key);
                    if (name != null && !name.isEmpty()) {
                        names.add(name);
                    }
                }
            }
        }
        List<MachineConfig> configs = new ArrayList<>();
        for (String name : names) {
            MachineConfig mc =
                    call(
                            client,
                            "machineconfigs.machineconfiguration.openshift.io/" + name,
                            () -> client.resources(MachineConfig.class).withName(name).get());
            if (mc != null) {
                configs.add(mc);
            }
        }
        Deployment mco =
                call(
                        client,
                        "deployments.apps/" + Snapshot.MCO_NAMESPACE + "/" + Snapshot.MCO_NAME,
                        () ->
                                client.apps()
                                        .deployments()
                                        .inNamespace(Snapshot.MCO_NAMESPACE)
                                        .withName(Snapshot.MCO_NAME)
                                        .get());
        return new ClusterState(
                cv,
                operators,
                pools,
                configs,
                nodes,
                Snapshot.mcoImage(mco),
                alerts,
                drainEvents(client),
                machineConfigNodes(client));
    }

    /**
     * The MachineConfigNodes, or none where the cluster has no such kind (404) or the reader may
     * not list them (403): the status stands without them, as {@code oc adm upgrade status}'s does.
     */
    public static List<MachineConfigNode> machineConfigNodes(KubernetesClient client) {
        try {
            return client.resources(MachineConfigNode.class).list().getItems();
        } catch (KubernetesClientException e) {
            if (e.getCode() == 404 || e.getCode() == 403) return List.of();
            throw new ApiException(
                    client, "machineconfignodes.machineconfiguration.openshift.io", e);
        }
    }

    /** The node agents' DrainBlocked events (recorded in "default", as events about nodes are). */
    public static List<Event> drainEvents(KubernetesClient client) {
        return DrainBlocks.events(
                call(
                        client,
                        "events/default",
                        () -> client.v1().events().inNamespace("default").list().getItems()));
    }

    /**
     * Runs one API call; a refusal becomes one line naming the resource and what the server said.
     */
    public static <T> T call(KubernetesClient client, String resource, Supplier<T> request) {
        try {
            return request.get();
        } catch (KubernetesClientException e) {
            throw new ApiException(client, resource, e);
        }
    }
}
