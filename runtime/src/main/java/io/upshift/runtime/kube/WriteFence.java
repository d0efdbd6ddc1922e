package io.upshift.runtime.kube;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.fabric8.kubernetes.client.http.BasicBuilder;
import io.fabric8.kubernetes.client.http.HttpRequest;
import io.fabric8.kubernetes.client.http.Interceptor;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What a leader writes with: once {@link #close closed} (the Lease is lost), every request other
 * than a read made through its clients fails before it leaves the process, whatever thread makes it
 * and however far along its work is. A controller that lost its Lease can then never write next to
 * the new leader.
 */
public final class WriteFence implements Interceptor {
    private volatile boolean closed;
    private final AtomicLong refused = new AtomicLong();

    /** A client of {@code config} whose writes stop when this fence closes. */
    public KubernetesClient client(Config config) {
        return new KubernetesClientBuilder()
                .withConfig(config)
                .withHttpClientBuilderConsumer(
                        b -> b.addOrReplaceInterceptor("upshift-write-fence", this))
                .build();
    }

    /** From now on, no write goes through. */
    public void close() {
        closed = true;
    }

    public boolean isClosed() {
        return closed;
    }

    /** How many writes this fence stopped. */
    public long refused() {
        return refused.get();
    }

    @Override
    public void before(BasicBuilder builder, HttpRequest request, RequestTags tags) {
        if (closed && !"GET".equals(request.method())) {
            refused.incrementAndGet();
            throw new FencedException(
                    request.method()
                            + " "
                            + request.uri().getPath()
                            + " refused: this process no longer holds the leader Lease");
        }
    }

    /** A write refused because the Lease was lost. */
    public static final class FencedException extends IllegalStateException {
        FencedException(String message) {
            super(message);
        }
    }
}
