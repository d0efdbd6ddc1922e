package io.upshift.runtime.http;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.handler.codec.http.HttpResponseStatus;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * An answer: status, headers and body, immutable, so that one made in advance serves every request
 * it fits, its head (status line and headers) encoded once. The server adds {@code Content-Length}
 * (but to a 304), {@code Date} and, when the connection closes, {@code Connection: close}; to a
 * HEAD it sends the head alone.
 */
public final class Reply {
    private static final String TEXT = "text/plain; charset=utf-8";

    private final int status;
    private final String[] headers; // name, value, name, value...
    private final Body body;

    /** The status line, the headers and Content-Length, without Date and the blank line. */
    private volatile ByteBuf head;

    private Reply(int status, String[] headers, Body body) {
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    public static Reply of(int status, String contentType, Body body) {
        return new Reply(valid(status), new String[] {"Content-Type", contentType}, body).checked();
    }

    public static Reply of(int status, String contentType, byte[] body) {
        return of(status, contentType, Body.of(body));
    }

    /** A plain-text reply, UTF-8. */
    public static Reply text(int status, String text) {
        return of(status, TEXT, Body.of(text));
    }

    /** A reply without a body (a 304, say), with no {@code Content-Type}. */
    public static Reply empty(int status) {
        return new Reply(valid(status), new String[0], Body.EMPTY);
    }

    /** This reply with one header more. */
    public Reply with(String name, String value) {
        String[] more = Arrays.copyOf(headers, headers.length + 2);
        more[headers.length] = name;
        more[headers.length + 1] = value;
        return new Reply(status, more, body).checked();
    }

    public int status() {
        return status;
    }

    /** The first value of a header this reply sets, or null. */
    public String header(String name) {
        for (int i = 0; i < headers.length; i += 2)
            if (headers[i].equalsIgnoreCase(name)) return headers[i + 1];
        return null;
    }

    public Body body() {
        return body;
    }

    /** The encoded head, for one write. */
    ByteBuf head() {
        ByteBuf h = head;
        if (h == null) {
            StringBuilder s = new StringBuilder(128);
            s.append("HTTP/1.1 ")
                    .append(status)
                    .append(' ')
                    .append(HttpResponseStatus.valueOf(status).reasonPhrase())
                    .append("\r\n");
            for (int i = 0; i < headers.length; i += 2)
                s.append(headers[i]).append(": ").append(headers[i + 1]).append("\r\n");
            if (status != 304) s.append("Content-Length: ").append(body.length()).append("\r\n");
            h =
                    Unpooled.unreleasableBuffer(
                            Unpooled.wrappedBuffer(
                                    s.toString().getBytes(StandardCharsets.ISO_8859_1)));
            head = h;
        }
        return h.duplicate();
    }

    private static int valid(int status) {
        if (status < 200 || status > 599)
            throw new IllegalArgumentException("not a final status: " + status);
        return status;
    }

    /** Header names and values are one line of Latin-1 each: nothing could split the head. */
    private Reply checked() {
        for (String h : headers) {
            for (int i = 0; i < h.length(); i++) {
                char c = h.charAt(i);
                if (c == '\r' || c == '\n' || c > 0xff)
                    throw new IllegalArgumentException("not a header line: " + h);
            }
        }
        return this;
    }
}
