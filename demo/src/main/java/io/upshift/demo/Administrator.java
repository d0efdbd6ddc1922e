package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.base.conditions.Conditions;
import io.upshift.pools.model.NodeAnnotations;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What the cluster's administrator does and reads through the API: asks for an update in the
 * ClusterVersion's spec, as {@code oc adm upgrade} does, and reads its history, the pools and the
 * nodes to see where the update stands. The waits look ten times a second, so that an end is seen
 * when it comes, and call a {@code tick} about once a second (to show progress or act meanwhile).
 */
public final class Administrator {

    private final KubernetesClient client;
    private final Clock clock;

    /** An administrator of the cluster {@code client} reaches; timeouts run on {@code clock}. */
    public Administrator(KubernetesClient client, Clock clock) {
        this.client = client;
        this.clock = clock;
    }

    /** The ClusterVersion {@code version}, or null when there is none. */
    public ClusterVersion clusterVersion() {
        return client.resources(ClusterVersion.class).withName("version").get();
    }

    /** Sets spec.desiredUpdate (version or image may be null), as an update conditional on it. */
    public void requestUpdate(String version, String image, boolean force) {
        ClusterVersion cv = clusterVersion();
        Update update = new Update();
        update.setVersion(version);
        update.setImage(image);
        if (force) update.setForce(true);
        cv.getSpec().setDesiredUpdate(update);
        client.resources(ClusterVersion.class).resource(cv).update();
    }

    /** True when history[0] is {@code version}, Completed. */
    public boolean completed(String version) {
        ClusterVersion cv = clusterVersion();
        if (cv == null
                || cv.getStatus() == null
                || cv.getStatus().getHistory() == null
                || cv.getStatus().getHistory().isEmpty()) return false;
        UpdateHistory top = cv.getStatus().getHistory().get(0);
        return version.equals(top.getVersion()) && "Completed".equals(top.getState());
    }

    /** Waits until {@code version} is Completed; false on timeout. */
    public boolean await(String version, Duration timeout, Runnable tick)
            throws InterruptedException {
        Instant deadline = clock.instant().plus(timeout);
        long nextTick = System.nanoTime();
        while (clock.instant().isBefore(deadline)) {
            if (completed(version)) return true;
            nextTick = tick(tick, nextTick);
        }
        return completed(version);
    }

    /**
     * Waits until every pool runs {@code version}'s config on all its nodes; true at once when the
     * cluster has no nodes, false on timeout.
     */
    public boolean awaitNodes(String version, Duration timeout, Runnable tick)
            throws InterruptedException {
        if (client.nodes().list().getItems().isEmpty()) return true;
        Instant deadline = clock.instant().plus(timeout);
        long nextTick = System.nanoTime();
        while (!poolsUpdated(version)) {
            if (!clock.instant().isBefore(deadline)) return false;
            nextTick = tick(tick, nextTick);
        }
        return true;
    }

    /**
     * Runs {@code tick} when it is due ({@link System#nanoTime()} {@code due}), then pauses a tenth
     * of a second; returns when the next is due.
     */
    private static long tick(Runnable tick, long due) throws InterruptedException {
        if (System.nanoTime() - due >= 0) {
            tick.run();
            due = System.nanoTime() + 1_000_000_000L;
        }
        Thread.sleep(100);
        return due;
    }

    /** When the last node was Done with its update, as its agent recorded it; empty without one. */
    public Optional<Instant> lastNodeDone() {
        Instant last = null;
        for (Node n : client.nodes().list().getItems()) {
            Map<String, String> a = n.getMetadata().getAnnotations();
            String done = a == null ? null : a.get(NodeAnnotations.UPDATE_DONE_AT);
            if (done != null && (last == null || Instant.parse(done).isAfter(last)))
                last = Instant.parse(done);
        }
        return Optional.ofNullable(last);
    }

    /**
     * There are pools, and each is Updated, to a config rendered by {@code version}'s controller.
     */
    private boolean poolsUpdated(String version) {
        List<MachineConfigPool> pools = client.resources(MachineConfigPool.class).list().getItems();
        return !pools.isEmpty() && pools.stream().allMatch(p -> updated(p, version));
    }

    private boolean updated(MachineConfigPool pool, String version) {
        var status = pool.getStatus();
        if (status == null || status.getConfiguration() == null || status.getConditions() == null)
            return false;
        String target = status.getConfiguration().getName();
        if (!Conditions.POOL.isTrue(status.getConditions(), "Updated") || target == null)
            return false;
        MachineConfig rendered = client.resources(MachineConfig.class).withName(target).get();
        return rendered != null
                && rendered.getMetadata().getAnnotations() != null
                && version.equals(
                        rendered.getMetadata()
                                .getAnnotations()
                                .get(NodeAnnotations.RELEASE_IMAGE_VERSION));
    }
}
