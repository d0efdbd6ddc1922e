package io.upshift.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;

/**
 * An HTTP/1.1 server on 127.0.0.1 that answers as an attacker's server would: endless or huge
 * bodies, bodies or headers sent a byte at a time, besides plain answers. Each path (matched by
 * prefix, the longest first) is given its answer; others are answered 404. It counts the body bytes
 * it managed to send before clients hung up, so a test can tell a client stopped reading at its
 * limit rather than after the whole answer.
 */
public final class HostileServer implements AutoCloseable {

    /** How a path is answered. */
    public sealed interface Answer {}

    /** A plain answer, with {@code headers} besides its type and length. */
    public record Plain(int status, String contentType, byte[] body, Map<String, String> headers)
            implements Answer {
        public Plain(int status, String contentType, byte[] body) {
            this(status, contentType, body, Map.of());
        }
    }

    /** {@code answer}, once {@code delay} has passed: a server slow to think, not to send. */
    public record Delayed(Duration delay, Plain answer) implements Answer {}

    /**
     * {@code status} (200 unless given) with {@code bytes} of body, as fast as the client takes
     * them, {@code prefix} first (the start of a JSON string, say); with a Content-Length that says
     * so when {@code declared}, else chunked.
     */
    public record Huge(long bytes, boolean declared, int status, String prefix) implements Answer {
        public Huge(long bytes, boolean declared) {
            this(bytes, declared, 200, "");
        }

        public Huge(long bytes, boolean declared, int status) {
            this(bytes, declared, status, "");
        }
    }

    /**
     * 200 whose body (chunked, one byte a chunk) or, {@code inHeaders}, whose headers come one byte
     * every {@code interval}, forever.
     */
    public record Trickle(Duration interval, boolean inHeaders) implements Answer {}

    private final ServerSocket socket;
    private final Map<String, Answer> answers = new ConcurrentHashMap<>();
    private final List<String> requests = new CopyOnWriteArrayList<>();
    private final List<Socket> open = new CopyOnWriteArrayList<>();
    private final AtomicLong sent = new AtomicLong();

    private HostileServer(ServerSocket socket) {
        this.socket = socket;
    }

    public static HostileServer start() throws IOException {
        HostileServer server =
                new HostileServer(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        Thread accept = new Thread(server::accept, "hostile-server");
        accept.setDaemon(true);
        accept.start();
        return server;
    }

    /** Answers requests for paths starting with {@code prefix} with {@code answer}. */
    public HostileServer answer(String prefix, Answer answer) {
        answers.put(prefix, answer);
        return this;
    }

    public String host() {
        return "127.0.0.1:" + socket.getLocalPort();
    }

    /** {@code http://127.0.0.1:PORT} followed by {@code path}. */
    public URI url(String path) {
        return URI.create("http://" + host() + path);
    }

    /** The request line of every request so far ("GET /x HTTP/1.1"). */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    /** Connections not closed yet (by the client, or by this server after its answer). */
    public int openConnections() {
        return open.size();
    }

    /** Body bytes sent so far, over every answer. */
    public long bodyBytesSent() {
        return sent.get();
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                open.add(client);
                Thread t = new Thread(() -> serve(client), "hostile-server-client");
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            OutputStream out = client.getOutputStream();
            String head = readHead(in);
            if (head == null) return;
            String line = head.lines().findFirst().orElse("");
            requests.add(line);
            String[] parts = line.split(" ");
            String path = parts.length > 1 ? parts[1] : "/";
            Answer answer =
                    answers.entrySet().stream()
                            .filter(e -> path.startsWith(e.getKey()))
                            .max(Map.Entry.comparingByKey((a, b) -> a.length() - b.length()))
                            .map(Map.Entry::getValue)
                            .orElse(new Plain(404, "text/plain", "not found\n".getBytes(UTF_8)));
            if (answer instanceof Delayed d) {
                Thread.sleep(d.delay().toMillis());
                answer = d.answer();
            }
            if (answer instanceof Plain p) {
                write(
                        out,
                        "HTTP/1.1 "
                                + p.status()
                                + " X\r\nContent-Type: "
                                + p.contentType()
                                + "\r\nContent-Length: "
                                + p.body().length
                                + "\r\n"
                                + p.headers().entrySet().stream()
                                        .map(e -> e.getKey() + ": " + e.getValue() + "\r\n")
                                        .reduce("", String::concat)
                                + "Connection: close\r\n\r\n");
                out.write(p.body());
                sent.addAndGet(p.body().length);
                out.flush();
            } else if (answer instanceof Huge h) {
                huge(out, h);
            } else if (answer instanceof Trickle t) {
                trickle(out, t);
            }
        } catch (IOException | InterruptedException hungUp) {
            // the client went away: what it was sent is counted
        } finally {
            open.remove(client);
        }
    }

    private void huge(OutputStream out, Huge h) throws IOException {
        write(
                out,
                "HTTP/1.1 "
                        + h.status()
                        + " X\r\nContent-Type: application/octet-stream\r\n"
                        + (h.declared()
                                ? "Content-Length: " + h.bytes()
                                : "Transfer-Encoding: chunked")
                        + "\r\nConnection: close\r\n\r\n");
        byte[] chunk = new byte[64 << 10];
        java.util.Arrays.fill(chunk, (byte) 'a');
        byte[] first = chunk.clone();
        byte[] prefix = h.prefix().getBytes(StandardCharsets.ISO_8859_1);
        System.arraycopy(prefix, 0, first, 0, prefix.length);
        long left = h.bytes();
        while (left > 0) {
            int n = (int) Math.min(chunk.length, left);
            if (!h.declared()) write(out, Integer.toHexString(n) + "\r\n");
            out.write(left == h.bytes() ? first : chunk, 0, n);
            if (!h.declared()) write(out, "\r\n");
            sent.addAndGet(n);
            left -= n;
        }
        if (!h.declared()) write(out, "0\r\n\r\n");
        out.flush();
    }

    private void trickle(OutputStream out, Trickle t) throws IOException, InterruptedException {
        if (t.inHeaders()) {
            write(out, "HTTP/1.1 200 OK\r\nX-Slow: ");
        } else {
            write(
                    out,
                    "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n"
                            + "Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n");
        }
        out.flush();
        while (!socket.isClosed()) {
            Thread.sleep(t.interval().toMillis());
            write(out, t.inHeaders() ? "a" : "1\r\na\r\n");
            out.flush();
            if (!t.inHeaders()) sent.incrementAndGet();
        }
    }

    private static void write(OutputStream out, String s) throws IOException {
        out.write(s.getBytes(StandardCharsets.ISO_8859_1));
    }

    /** The request's line and headers, or null when the client closed first. */
    private static String readHead(InputStream in) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int state = 0;
        for (int b; (b = in.read()) >= 0; ) {
            // a TLS handshake (a client trying HTTPS first): refused, as a plain server does
            if (head.size() == 0 && b == 0x16) return null;
            head.write(b);
            state =
                    switch (state) {
                        case 0, 2 -> b == '\r' ? state + 1 : 0;
                        case 1 -> b == '\n' ? 2 : 0;
                        case 3 -> b == '\n' ? 4 : 0;
                        default -> 0;
                    };
            if (state == 4) return head.toString(StandardCharsets.ISO_8859_1);
            if (head.size() > 64 << 10) return null;
        }
        return null;
    }

    @Override
    public void close() throws IOException {
        socket.close();
        for (Socket s : open) {
            try {
                s.close();
            } catch (IOException ignored) {
                // closing anyway
            }
        }
    }
}
