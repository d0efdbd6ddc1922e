package io.upshift.releases.image;

import com.google.api.client.http.HttpTransport;
import com.google.api.client.http.apache.v2.ApacheHttpTransport;
import com.google.api.client.util.SslUtils;
import com.google.cloud.tools.jib.api.LogEvent;
import com.google.cloud.tools.jib.api.RegistryException;
import com.google.cloud.tools.jib.http.FailoverHttpClient;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.runtime.fetch.BoundExceeded;
import io.upshift.runtime.fetch.Deadline;
import java.io.FilterInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Constructor;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Supplier;
import org.apache.http.HttpEntity;
import org.apache.http.HttpRequest;
import org.apache.http.HttpResponseInterceptor;
import org.apache.http.config.ConnectionConfig;
import org.apache.http.config.MessageConstraints;
import org.apache.http.conn.EofSensorInputStream;
import org.apache.http.conn.ssl.NoopHostnameVerifier;
import org.apache.http.conn.ssl.SSLConnectionSocketFactory;
import org.apache.http.entity.HttpEntityWrapper;
import org.apache.http.impl.client.CloseableHttpClient;
import org.apache.http.impl.client.HttpClientBuilder;
import org.apache.http.protocol.HttpCoreContext;

/**
 * The connections under jib-core's registry client (which Upshift pushes with), bounded as
 * Upshift's own registry reads are. jib reads what a registry answers a push (a token, an upload's
 * location, an error, which google-http-client reads whole into a string) with no limit of its own
 * and bounds time per socket read only; here its transport is built with limits: every answer's
 * body at most {@link RegistryLimits#maxAnswer()}, its head at most {@link #MAX_HEAD_LINE} a line
 * and {@link #MAX_HEADERS} lines, and each of jib's operations within a deadline ({@link #within}),
 * at which every connection made here is closed, ending whatever jib was waiting on.
 *
 * <p>jib takes its transports only through a package-private constructor of {@link
 * FailoverHttpClient}; it is called by reflection (jib-core is pinned, and {@code
 * JibConnectionsTest} fails if that constructor changes).
 */
final class JibConnections implements AutoCloseable {

    static final int MAX_HEAD_LINE = 16 << 10;
    static final int MAX_HEADERS = 200;

    private static final ScheduledExecutorService TIMER =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "registry-deadlines");
                        t.setDaemon(true);
                        return t;
                    });

    /** A registry operation of jib's. */
    interface Operation<T> {
        T run() throws IOException, RegistryException;
    }

    private final String registry;
    private final long maxAnswer;
    private final List<CloseableHttpClient> made = new CopyOnWriteArrayList<>();
    private volatile boolean closed;

    JibConnections(String registry, long maxAnswer) {
        this.registry = registry;
        this.maxAnswer = maxAnswer;
    }

    /**
     * jib's client over these connections; {@code plain}: HTTP and unverified HTTPS allowed, as
     * jib's own failover allows them for an insecure or loopback registry.
     */
    FailoverHttpClient client(boolean plain) throws ReleaseException {
        try {
            Constructor<FailoverHttpClient> c =
                    FailoverHttpClient.class.getDeclaredConstructor(
                            boolean.class,
                            boolean.class,
                            Consumer.class,
                            Supplier.class,
                            Supplier.class,
                            boolean.class);
            c.setAccessible(true);
            Consumer<LogEvent> quiet = log -> {};
            Supplier<HttpTransport> secure = () -> transport(true);
            Supplier<HttpTransport> insecure = () -> transport(false);
            return c.newInstance(plain, plain, quiet, secure, insecure, true);
        } catch (ReflectiveOperationException | RuntimeException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "cannot make a registry client with bounded connections (jib-core's"
                            + " FailoverHttpClient changed?): "
                            + e,
                    e);
        }
    }

    private HttpTransport transport(boolean secure) {
        HttpClientBuilder b =
                ApacheHttpTransport.newDefaultHttpClientBuilder()
                        .setDefaultConnectionConfig(
                                ConnectionConfig.custom()
                                        .setMessageConstraints(
                                                MessageConstraints.custom()
                                                        .setMaxLineLength(MAX_HEAD_LINE)
                                                        .setMaxHeaderCount(MAX_HEADERS)
                                                        .build())
                                        .build())
                        .addInterceptorLast(
                                (HttpResponseInterceptor)
                                        (response, context) -> {
                                            HttpEntity entity = response.getEntity();
                                            if (entity == null) return;
                                            HttpRequest request =
                                                    HttpCoreContext.adapt(context).getRequest();
                                            response.setEntity(
                                                    new Limited(
                                                            entity,
                                                            request == null
                                                                    ? "a request"
                                                                    : request.getRequestLine()
                                                                                    .getMethod()
                                                                            + " "
                                                                            + request.getRequestLine()
                                                                                    .getUri()));
                                        });
        if (secure) {
            b.setSSLSocketFactory(SSLConnectionSocketFactory.getSystemSocketFactory());
        } else {
            try {
                b.setSSLSocketFactory(null)
                        .setSSLContext(SslUtils.trustAllSSLContext())
                        .setSSLHostnameVerifier(new NoopHostnameVerifier());
            } catch (java.security.GeneralSecurityException e) {
                throw new IllegalStateException("cannot make an unverified TLS context", e);
            }
        }
        CloseableHttpClient client = b.build();
        made.add(client);
        // a transport jib makes after the deadline (a retry) starts closed: nothing outlives it
        if (closed) close();
        return new ApacheHttpTransport(client);
    }

    /**
     * Runs {@code operation} within {@code limit}; at the limit every connection made here is
     * closed, and the operation fails naming {@code what}, the registry and the limit.
     */
    <T> T within(Duration limit, String what, Operation<T> operation)
            throws IOException, RegistryException {
        Deadline deadline = Deadline.in(limit, what);
        AtomicBoolean reached = new AtomicBoolean();
        ScheduledFuture<?> alarm =
                TIMER.schedule(
                        () -> {
                            reached.set(true);
                            close();
                        },
                        limit.toNanos(),
                        TimeUnit.NANOSECONDS);
        try {
            T result = operation.run();
            if (reached.get()) throw BoundExceeded.notDone(registry, what, deadline);
            return result;
        } catch (IOException | RegistryException | RuntimeException e) {
            if (reached.get()) throw BoundExceeded.notDone(registry, what, deadline);
            throw e;
        } finally {
            alarm.cancel(false);
        }
    }

    /** Closes every connection made here: what jib waits on fails at once. */
    @Override
    public void close() {
        closed = true;
        for (CloseableHttpClient c : made) {
            try {
                c.close();
            } catch (IOException | RuntimeException ignored) {
                // closing anyway
            }
        }
    }

    /** An answer's body, refused past the limit. */
    private final class Limited extends HttpEntityWrapper {
        private final String request;

        Limited(HttpEntity wrapped, String request) {
            super(wrapped);
            this.request = request;
        }

        @Override
        public InputStream getContent() throws IOException {
            if (super.getContentLength() > maxAnswer)
                throw BoundExceeded.tooLarge(registry, request, maxAnswer);
            InputStream content = super.getContent();
            return new FilterInputStream(content) {
                private long count;
                private boolean ended;

                /**
                 * Closing before the end drops the connection: closed as is, the rest of the answer
                 * would be read (and thrown away) to reuse the connection.
                 */
                @Override
                public void close() throws IOException {
                    if (!ended && content instanceof EofSensorInputStream e) e.abortConnection();
                    super.close();
                }

                @Override
                public int read() throws IOException {
                    int b = super.read();
                    if (b < 0) ended = true;
                    if (b >= 0 && ++count > maxAnswer)
                        throw BoundExceeded.tooLarge(registry, request, maxAnswer);
                    return b;
                }

                @Override
                public int read(byte[] buf, int off, int len) throws IOException {
                    int n = super.read(buf, off, len);
                    if (n < 0) ended = true;
                    if (n > 0 && (count += n) > maxAnswer)
                        throw BoundExceeded.tooLarge(registry, request, maxAnswer);
                    return n;
                }
            };
        }

        @Override
        public void writeTo(OutputStream out) throws IOException {
            try (InputStream in = getContent()) {
                in.transferTo(out);
            }
        }

        @Override
        public boolean isRepeatable() {
            return false;
        }
    }
}
