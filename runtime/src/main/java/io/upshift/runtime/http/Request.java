package io.upshift.runtime.http;

import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import java.net.InetAddress;

/** A request's head as an endpoint sees it (bodies are not read: none of the servers takes one). */
public final class Request {
    private final HttpRequest head;
    private final String path;
    private final String rawQuery;
    boolean keepAlive; // false once the request is found malformed
    Reply refusal; // the answer when the server refuses the request itself, else null
    final boolean http10;

    private final InetAddress source;

    Request(HttpRequest head, boolean keepAlive, InetAddress source) {
        this.head = head;
        this.source = source;
        this.keepAlive = keepAlive;
        this.http10 = head.protocolVersion().equals(HttpVersion.HTTP_1_0);
        String uri = head.uri();
        // the absolute form a proxy may send: http://host:port/path?query
        if (uri.startsWith("http://") || uri.startsWith("https://")) {
            int slash = uri.indexOf('/', uri.indexOf("//") + 2);
            uri = slash < 0 ? "/" : uri.substring(slash);
        }
        int hash = uri.indexOf('#'); // never sent by a browser, but a client may
        if (hash >= 0) uri = uri.substring(0, hash);
        int q = uri.indexOf('?');
        this.path = q < 0 ? uri : uri.substring(0, q);
        this.rawQuery = q < 0 ? null : uri.substring(q + 1);
    }

    /** The client's address, as this server sees it (a proxy's, behind one); null when unknown. */
    public InetAddress source() {
        return source;
    }

    /** GET, HEAD, POST... as sent. */
    public String method() {
        return head.method().name();
    }

    public boolean isHead() {
        return HttpMethod.HEAD.equals(head.method());
    }

    /** The path as sent (not decoded). */
    public String path() {
        return path;
    }

    /** What follows {@code ?}, as sent; null when there is none. */
    public String rawQuery() {
        return rawQuery;
    }

    /**
     * The first value of a header, or null; a value holding a control character is not one (the
     * decoder does not check the headers no one reads): the request is answered 400.
     */
    public String header(CharSequence name) {
        String value = head.headers().get(name);
        if (value != null) {
            for (int i = 0; i < value.length(); i++) {
                char c = value.charAt(i);
                if ((c < ' ' && c != '\t') || c == 0x7f)
                    throw new MalformedRequest("the " + name + " header holds a control character");
            }
        }
        return value;
    }

    /** A request the server answers 400, then closes its connection. */
    static final class MalformedRequest extends RuntimeException {
        MalformedRequest(String message) {
            super(message, null, false, false);
        }
    }
}
