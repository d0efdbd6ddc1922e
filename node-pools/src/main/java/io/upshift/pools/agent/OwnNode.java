package io.upshift.pools.agent;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.upshift.runtime.kube.InformerFailures;

/**
 * The agent's own Node, from an informer on it (listed and watched again whenever its watch ends):
 * the agent's wake-up, and what it reads. Every change of the node asks for a step, except the echo
 * of the agent's own last write, which tells it nothing new. The node it reads is the one the
 * informer or the agent's own last write showed last; from the API while the informer is not
 * watching.
 */
final class OwnNode implements AutoCloseable {
    private final KubernetesClient client;
    private final String name;
    private final SharedIndexInformer<Node> informer;
    private volatile Node seen;

    /** The resourceVersion the agent's last write produced. */
    private volatile String ownWrite = "";

    OwnNode(KubernetesClient client, String name, Runnable onChange) {
        this.client = client;
        this.name = name;
        this.informer = client.nodes().withName(name).runnableInformer(0);
        informer.exceptionHandler(new InformerFailures("nodes/" + name));
        informer.addEventHandler(
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(Node node) {
                        seen(node, true, onChange);
                    }

                    @Override
                    public void onUpdate(Node before, Node node) {
                        seen(node, !version(before).equals(version(node)), onChange);
                    }

                    @Override
                    public void onDelete(Node node, boolean finalStateUnknown) {
                        seen = null;
                        onChange.run();
                    }
                });
    }

    /** Starts the informer; it does not wait: the node is read from the API until it watches. */
    void start() {
        informer.start();
    }

    private void seen(Node node, boolean changed, Runnable onChange) {
        seen = node;
        if (changed && !version(node).equals(ownWrite)) onChange.run();
    }

    /**
     * The node as last shown.
     *
     * @throws IllegalStateException when it does not exist
     */
    Node latest() {
        Node node = informer.isWatching() ? seen : null;
        return node != null ? node : read();
    }

    /** The node as last shown, without asking the API; null when there is none. */
    Node seen() {
        return seen;
    }

    /**
     * The node as the API holds it now.
     *
     * @throws IllegalStateException when it does not exist
     */
    Node read() {
        Node node = client.nodes().withName(name).get();
        if (node == null) throw new IllegalStateException("node " + name + " not found");
        return node;
    }

    /** The agent wrote the node: {@code written} is the newest it knows. */
    void wrote(Node written) {
        ownWrite = version(written);
        seen = written;
    }

    private static String version(Node node) {
        String v = node.getMetadata().getResourceVersion();
        return v == null ? "" : v;
    }

    @Override
    public void close() {
        informer.stop();
    }
}
