package io.upshift.runtime.http;

import io.netty.handler.codec.http.HttpResponseStatus;
import io.netty.util.AsciiString;
import java.util.Arrays;

/**
 * An answer: status, headers and body, immutable, so that one made in advance serves every request
 * it fits. The server adds {@code Content-Length} (but to a 304), {@code Date} and, when the
 * connection closes, {@code Connection: close}; to a HEAD it sends the headers alone.
 */
public final class Reply {
    static final AsciiString TEXT = AsciiString.cached("text/plain; charset=utf-8");
    // header names as RFC 9110 spells them (Netty's constants are HTTP/2's lower case)
    static final AsciiString CONTENT_TYPE = AsciiString.cached("Content-Type");
    static final AsciiString CONTENT_LENGTH = AsciiString.cached("Content-Length");
    static final AsciiString DATE = AsciiString.cached("Date");
    static final AsciiString CONNECTION = AsciiString.cached("Connection");

    private final HttpResponseStatus status;
    private final AsciiString[] headers; // name, value, name, value...
    private final Body body;

    private Reply(HttpResponseStatus status, AsciiString[] headers, Body body) {
        this.status = status;
        this.headers = headers;
        this.body = body;
    }

    public static Reply of(int status, String contentType, Body body) {
        return new Reply(
                HttpResponseStatus.valueOf(status),
                new AsciiString[] {CONTENT_TYPE, AsciiString.of(contentType)},
                body);
    }

    public static Reply of(int status, String contentType, byte[] body) {
        return of(status, contentType, Body.of(body));
    }

    /** A plain-text reply, UTF-8. */
    public static Reply text(int status, String text) {
        return new Reply(
                HttpResponseStatus.valueOf(status),
                new AsciiString[] {CONTENT_TYPE, TEXT},
                Body.of(text));
    }

    /** A reply without a body (a 304, say), with no {@code Content-Type}. */
    public static Reply empty(int status) {
        return new Reply(HttpResponseStatus.valueOf(status), new AsciiString[0], Body.EMPTY);
    }

    /** This reply with one header more. */
    public Reply with(String name, String value) {
        AsciiString[] more = Arrays.copyOf(headers, headers.length + 2);
        more[headers.length] = AsciiString.cached(name);
        more[headers.length + 1] = AsciiString.of(value);
        return new Reply(status, more, body);
    }

    public int status() {
        return status.code();
    }

    /** The first value of a header this reply sets, or null. */
    public String header(String name) {
        for (int i = 0; i < headers.length; i += 2)
            if (headers[i].contentEqualsIgnoreCase(name)) return headers[i + 1].toString();
        return null;
    }

    public Body body() {
        return body;
    }

    HttpResponseStatus nettyStatus() {
        return status;
    }

    AsciiString[] headerPairs() {
        return headers;
    }
}
