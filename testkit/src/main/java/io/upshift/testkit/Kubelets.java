package io.upshift.testkit;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What the kubelets of a real cluster do with the pods bound to their nodes, for a real API server
 * that has none: a pod marked for deletion (deleted gracefully, or evicted) ends once its grace
 * period ({@code deletionGracePeriodSeconds}, from its {@code terminationGracePeriodSeconds}) has
 * passed and no finalizer holds it, and the kubelet then removes it for good (a delete with no
 * grace period), as it does once the pod's containers stopped. Until then the pod stays
 * terminating, as on a real node; a pod on no node is the API server's to delete at once.
 *
 * <p>The embedded API server plays this itself ({@link ApiServerDispatcher#evictionGrace}): there
 * this does nothing.
 */
public final class Kubelets implements AutoCloseable {
    private final KubernetesClient client;
    private final SharedIndexInformer<Pod> pods;
    private final Set<String> scheduled = ConcurrentHashMap.newKeySet();
    private final ScheduledExecutorService ends =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "simulated-kubelets");
                        t.setDaemon(true);
                        return t;
                    });

    private Kubelets(KubernetesClient client) {
        this.client = client;
        this.pods =
                client.pods()
                        .inAnyNamespace()
                        .inform(
                                new ResourceEventHandler<>() {
                                    @Override
                                    public void onAdd(Pod pod) {
                                        seen(pod);
                                    }

                                    @Override
                                    public void onUpdate(Pod before, Pod pod) {
                                        seen(pod);
                                    }

                                    @Override
                                    public void onDelete(Pod pod, boolean unknown) {
                                        scheduled.remove(pod.getMetadata().getUid());
                                    }
                                });
    }

    /**
     * The kubelets of {@code server}'s nodes: started on a real server, nothing on the embedded.
     */
    public static Kubelets of(ApiServer server) {
        return server.real() ? new Kubelets(server.client("upshift-test-kubelet")) : new Kubelets();
    }

    private Kubelets() {
        this.client = null;
        this.pods = null;
    }

    @SuppressWarnings("FutureReturnValueIgnored") // a timer: end() handles its API errors
    private void seen(Pod pod) {
        var m = pod.getMetadata();
        if (m.getDeletionTimestamp() == null
                || pod.getSpec().getNodeName() == null
                || (m.getFinalizers() != null && !m.getFinalizers().isEmpty())) return;
        if (!scheduled.add(m.getUid())) return;
        long grace =
                m.getDeletionGracePeriodSeconds() == null ? 0 : m.getDeletionGracePeriodSeconds();
        ends.schedule(() -> end(pod), grace, TimeUnit.SECONDS);
    }

    /** Removes the pod for good, unless a finalizer came back to hold it meanwhile. */
    private void end(Pod pod) {
        Pod now = pods.getStore().get(pod);
        if (now == null || !now.getMetadata().getUid().equals(pod.getMetadata().getUid())) return;
        if (now.getMetadata().getFinalizers() != null
                && !now.getMetadata().getFinalizers().isEmpty()) {
            scheduled.remove(now.getMetadata().getUid()); // seen again once they are gone
            return;
        }
        try {
            client.pods()
                    .inNamespace(now.getMetadata().getNamespace())
                    .withName(now.getMetadata().getName())
                    .withGracePeriod(0)
                    .delete();
        } catch (KubernetesClientException e) {
            if (e.getCode() != 404) scheduled.remove(now.getMetadata().getUid());
        }
    }

    @Override
    public void close() {
        if (pods != null) pods.close();
        ends.shutdownNow();
        if (client != null) client.close();
    }
}
