package io.upshift.runtime.fetch;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.net.URI;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * An answer's body as the HTTP client hands it over, read as a stream that stops at its bounds: one
 * batch of buffers asked for at a time (so at most two batches are ever held), a read that would
 * pass {@code maxBytes} or {@code deadline} fails and cancels the exchange, and a read that waits
 * waits no longer than the deadline.
 */
final class BoundedBody extends InputStream implements HttpResponse.BodySubscriber<InputStream> {

    private static final Object END = new Object();

    private final String method;
    private final URI uri;
    private final long maxBytes;
    private final Deadline deadline;
    private final BlockingQueue<Object> arrived = new LinkedBlockingQueue<>();
    private volatile Flow.Subscription subscription;
    private volatile boolean closed;
    private Iterator<ByteBuffer> batch;
    private ByteBuffer buffer;
    private long count;
    private boolean ended;

    BoundedBody(String method, URI uri, long maxBytes, Deadline deadline) {
        this.method = method;
        this.uri = uri;
        this.maxBytes = maxBytes;
        this.deadline = deadline;
    }

    @Override
    public CompletionStage<InputStream> getBody() {
        return CompletableFuture.completedStage(this);
    }

    @Override
    public void onSubscribe(Flow.Subscription s) {
        subscription = s;
        if (closed) s.cancel();
        else s.request(1);
    }

    @Override
    public void onNext(List<ByteBuffer> item) {
        arrived.add(item);
    }

    @Override
    public void onError(Throwable t) {
        arrived.add(t);
    }

    @Override
    public void onComplete() {
        arrived.add(END);
    }

    @Override
    public int read() throws IOException {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (closed) throw new IOException(uri + ": the answer was closed");
        if (len == 0) return 0;
        while (buffer == null || !buffer.hasRemaining()) {
            if (batch != null && batch.hasNext()) {
                buffer = batch.next();
                continue;
            }
            if (ended) return -1;
            if (deadline.passed()) throw fail(BoundExceeded.tooSlow(method, uri, deadline));
            Object next;
            try {
                next = arrived.poll(deadline.remainingNanos(), TimeUnit.NANOSECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cancel();
                throw new InterruptedIOException("interrupted while reading " + uri);
            }
            if (next == null) throw fail(BoundExceeded.tooSlow(method, uri, deadline));
            if (next == END) {
                ended = true;
                return -1;
            }
            if (next instanceof Throwable t) {
                ended = true;
                throw t instanceof IOException io
                        ? io
                        : new IOException(uri + ": " + t.getMessage(), t);
            }
            @SuppressWarnings("unchecked")
            List<ByteBuffer> buffers = (List<ByteBuffer>) next;
            batch = buffers.iterator();
            subscription.request(1);
        }
        int n = Math.min(len, buffer.remaining());
        if (count + n > maxBytes) throw fail(BoundExceeded.tooLarge(method, uri, maxBytes));
        buffer.get(b, off, n);
        count += n;
        return n;
    }

    /** Bytes read so far. */
    long count() {
        return count;
    }

    private IOException fail(IOException e) {
        cancel();
        ended = true;
        return e;
    }

    /** Stops the exchange: what is not read yet is not wanted. */
    void cancel() {
        closed = true;
        Flow.Subscription s = subscription;
        if (s != null) s.cancel();
        arrived.clear();
    }

    @Override
    public void close() {
        if (!closed && !ended) cancel();
        closed = true;
    }
}
