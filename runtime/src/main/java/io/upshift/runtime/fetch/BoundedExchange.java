package io.upshift.runtime.fetch;

import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One HTTP exchange bounded in bytes and in time, from sending the request to the last byte of the
 * body: the JDK client's request timeout ends at the headers, and its byte-array handlers read a
 * body of any size into memory, so neither bounds an answer a server chooses to make endless or
 * huge. Here the wait for the headers and every read of the body end at one deadline, the body is
 * streamed and refused as soon as it passes its limit (at once when its Content-Length says it
 * would), and an exchange that fails is cancelled, its connection dropped.
 *
 * <p>Every failure is an {@link IOException} naming the host and the request; one that reached a
 * bound is a {@link BoundExceeded} naming the limit.
 */
public final class BoundedExchange implements Closeable {

    /** How much one answer may hold and how long its whole exchange may take. */
    public record Bounds(long maxBytes, Duration deadline) {
        public Bounds {
            if (maxBytes < 0) throw new IllegalArgumentException("maxBytes < 0");
            if (deadline.isNegative() || deadline.isZero())
                throw new IllegalArgumentException("deadline must be positive");
        }

        public Bounds withMaxBytes(long n) {
            return new Bounds(n, deadline);
        }

        public Bounds withDeadline(Duration d) {
            return new Bounds(maxBytes, d);
        }
    }

    private final HttpResponse<InputStream> response;
    private final BoundedBody body;

    private BoundedExchange(HttpResponse<InputStream> response, BoundedBody body) {
        this.response = response;
        this.body = body;
    }

    /**
     * Sends {@code request} and waits for the answer's headers, the whole exchange bounded by
     * {@code bounds} and no later than {@code outer} when given (null: none).
     */
    public static BoundedExchange send(
            HttpClient http, HttpRequest request, Bounds bounds, Deadline outer)
            throws IOException, InterruptedException {
        Deadline deadline = Deadline.in(bounds.deadline(), "one answer");
        if (outer != null) {
            if (outer.passed())
                throw BoundExceeded.passed(
                        request.uri().getHost(), request.method() + " " + request.uri(), outer);
            deadline = outer.earlier(deadline);
        }
        URI uri = request.uri();
        BoundedBody body = new BoundedBody(request.method(), uri, bounds.maxBytes(), deadline);
        CompletableFuture<HttpResponse<InputStream>> sent = http.sendAsync(request, info -> body);
        HttpResponse<InputStream> response;
        try {
            response = sent.get(Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            sent.cancel(true);
            body.cancel();
            throw BoundExceeded.tooSlow(request.method(), uri, deadline);
        } catch (InterruptedException e) {
            sent.cancel(true);
            body.cancel();
            throw e;
        } catch (ExecutionException e) {
            body.cancel();
            Throwable cause = e.getCause() == null ? e : e.getCause();
            String what = NetworkErrors.unanswered(cause);
            if (what == null)
                what =
                        cause.getMessage() == null || cause.getMessage().isBlank()
                                ? cause.getClass().getSimpleName()
                                : cause.getMessage();
            throw new IOException(request.method() + " " + uri + ": " + what, cause);
        }
        BoundedExchange exchange = new BoundedExchange(response, body);
        OptionalLong declared = response.headers().firstValueAsLong("Content-Length");
        if (declared.isPresent() && declared.getAsLong() > bounds.maxBytes()) {
            exchange.close();
            throw BoundExceeded.tooLarge(request.method(), uri, bounds.maxBytes());
        }
        return exchange;
    }

    /** As {@link #send(HttpClient, HttpRequest, Bounds, Deadline)} with no outer deadline. */
    public static BoundedExchange send(HttpClient http, HttpRequest request, Bounds bounds)
            throws IOException, InterruptedException {
        return send(http, request, bounds, null);
    }

    public int status() {
        return response.statusCode();
    }

    public HttpHeaders headers() {
        return response.headers();
    }

    /** The URI that answered (after redirects). */
    public URI uri() {
        return response.uri();
    }

    /** The body, streamed within the bounds. */
    public InputStream body() {
        return body;
    }

    /** The whole body, within the bounds. */
    public byte[] readAll() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[16 << 10];
        for (int n; (n = body.read(buffer, 0, buffer.length)) >= 0; ) out.write(buffer, 0, n);
        return out.toByteArray();
    }

    /** Ends the exchange; what was not read is dropped with its connection. */
    @Override
    public void close() {
        body.close();
    }
}
