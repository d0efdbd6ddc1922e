package io.upshift.testkit;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * One HTTP/1.1 connection on a plain socket, for tests that need what a client library hides: bytes
 * sent as they are (a request line of 20 MB, headers a byte at a time, pipelined requests), answers
 * read one by one, and whether the server closed the connection.
 */
public final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RawHttp(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /** Connects to 127.0.0.1; a read waits at most 30 s. */
    public static RawHttp connect(int port) throws IOException {
        Socket s = new Socket(InetAddress.getLoopbackAddress(), port);
        s.setSoTimeout(30_000);
        s.setTcpNoDelay(true);
        return new RawHttp(s);
    }

    /** A GET with a Host header and the extra header lines given ("Name: value"). */
    public static String get(String target, String... headers) {
        StringBuilder s = new StringBuilder("GET " + target + " HTTP/1.1\r\nHost: localhost\r\n");
        for (String h : headers) s.append(h).append("\r\n");
        return s.append("\r\n").toString();
    }

    public RawHttp send(String text) throws IOException {
        return send(text.getBytes(StandardCharsets.ISO_8859_1));
    }

    public RawHttp send(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
        return this;
    }

    /** The next answer, its body read by its Content-Length (none for a 304). */
    public Response read() throws IOException {
        return read(false);
    }

    /** The next answer to a HEAD: headers alone. */
    public Response readHead() throws IOException {
        return read(true);
    }

    private Response read(boolean head) throws IOException {
        String status = line();
        if (status == null) throw new IOException("the server closed the connection");
        String[] parts = status.split(" ", 3);
        if (parts.length < 2 || !parts[0].startsWith("HTTP/1."))
            throw new IOException("not an HTTP answer: " + status);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String h = line(); h != null && !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            headers.putIfAbsent(
                    h.substring(0, colon).strip().toLowerCase(Locale.ROOT),
                    h.substring(colon + 1).strip());
        }
        int code = Integer.parseInt(parts[1]);
        byte[] body = new byte[0];
        String length = headers.get("content-length");
        if (!head && code != 304 && length != null) body = in.readNBytes(Integer.parseInt(length));
        return new Response(code, headers, body);
    }

    /**
     * Whether the server closed the connection (or reset it) within the read timeout, reading and
     * dropping whatever it still sends.
     */
    public boolean closedByServer() throws IOException {
        try {
            while (in.read() >= 0) {
                // an answer before the close
            }
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (SocketException e) {
            return true; // reset
        }
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') break;
            if (c != '\r') b.write(c);
        }
        if (c < 0 && b.size() == 0) return null;
        return b.toString(StandardCharsets.ISO_8859_1);
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    /** An answer: status, headers by lower-case name, body. */
    public record Response(int status, Map<String, String> headers, byte[] body) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        public String text() {
            return new String(body, StandardCharsets.UTF_8);
        }
    }
}
