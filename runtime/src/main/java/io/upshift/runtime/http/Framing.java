package io.upshift.runtime.http;

import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaderValues;
import io.netty.handler.codec.http.HttpRequest;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;
import java.util.Iterator;
import java.util.Map;

/**
 * What RFC 9112 asks of a request's head before a server answers it, past what the decoder checks
 * ({@link RequestDecoder}): the transfer codings it can frame the body by, and its Host.
 *
 * <ul>
 *   <li>Transfer-Encoding: the only coding this server frames a body by is {@code chunked}, once
 *       (§6.1); any other is answered 501 (Go's server does the same), chunked twice or an empty
 *       list 400. In an HTTP/1.0 request it is 400 (§6.1: the framing is faulty). A 400 or 501 here
 *       closes the connection: what follows the head cannot be told apart from a request (§6.3), so
 *       {@code Transfer-Encoding: xchunked} followed by a second request is one refusal, never two
 *       answers.
 *   <li>Host: exactly one in an HTTP/1.1 request, at most one in an HTTP/1.0 one, and a valid
 *       {@code uri-host [":" port]} (§3.2): else 400.
 * </ul>
 *
 * One pass over the headers, which the server otherwise reads only when an endpoint asks.
 */
final class Framing {
    private Framing() {}

    /** Why the request is refused, or null to answer it. */
    static RequestDecoder.Refused check(HttpRequest head) {
        int hosts = 0, chunked = 0;
        CharSequence host = null;
        String unknown = null;
        boolean codings = false, emptyCodings = false;
        Iterator<Map.Entry<CharSequence, CharSequence>> i = head.headers().iteratorCharSequence();
        while (i.hasNext()) {
            Map.Entry<CharSequence, CharSequence> h = i.next();
            CharSequence name = h.getKey();
            if (AsciiString.contentEqualsIgnoreCase(name, HttpHeaderNames.HOST)) {
                hosts++;
                host = h.getValue();
            } else if (AsciiString.contentEqualsIgnoreCase(
                    name, HttpHeaderNames.TRANSFER_ENCODING)) {
                codings = true;
                int listed = 0;
                for (String coding : h.getValue().toString().split(",", -1)) {
                    String c = coding.strip();
                    if (c.isEmpty()) continue; // empty list elements are allowed, and ignored
                    listed++;
                    if (HttpHeaderValues.CHUNKED.contentEqualsIgnoreCase(c)) chunked++;
                    else if (unknown == null) unknown = c;
                }
                if (listed == 0) emptyCodings = true;
            }
        }
        boolean http10 = head.protocolVersion().equals(HttpVersion.HTTP_1_0);
        if (codings) {
            if (http10)
                return new RequestDecoder.Refused(
                        400, "an HTTP/1.0 request cannot carry Transfer-Encoding");
            if (unknown != null)
                return new RequestDecoder.Refused(
                        501,
                        "transfer coding \""
                                + printable(unknown)
                                + "\" is not implemented: chunked alone is");
            if (emptyCodings) return new RequestDecoder.Refused(400, "an empty Transfer-Encoding");
            if (chunked > 1)
                return new RequestDecoder.Refused(400, "chunked is applied more than once");
        }
        if (hosts > 1) return new RequestDecoder.Refused(400, "more than one Host header");
        if (hosts == 0 && !http10)
            return new RequestDecoder.Refused(400, "an HTTP/1.1 request needs a Host header");
        if (host != null && !validHost(host))
            return new RequestDecoder.Refused(400, "the Host header is not a host[:port]");
        return null;
    }

    /**
     * {@code uri-host [":" port]} of RFC 3986: an IP literal in brackets, or a reg-name (IPv4
     * addresses are reg-names too), possibly empty; a port of digits.
     */
    static boolean validHost(CharSequence value) {
        String v = value.toString().strip();
        int portStart;
        if (v.startsWith("[")) {
            int close = v.indexOf(']');
            if (close < 0) return false;
            for (int i = 1; i < close; i++) {
                char c = v.charAt(i);
                if (!(unreserved(c) || subDelim(c) || c == ':')) return false;
            }
            portStart = close + 1;
            if (portStart < v.length() && v.charAt(portStart) != ':') return false;
        } else {
            int colon = v.indexOf(':');
            portStart = colon < 0 ? v.length() : colon;
            for (int i = 0; i < portStart; i++) {
                char c = v.charAt(i);
                if (c == '%') {
                    if (i + 2 >= portStart || !hex(v.charAt(i + 1)) || !hex(v.charAt(i + 2)))
                        return false;
                    i += 2;
                } else if (!(unreserved(c) || subDelim(c))) {
                    return false;
                }
            }
        }
        for (int i = portStart + 1; i < v.length(); i++)
            if (v.charAt(i) < '0' || v.charAt(i) > '9') return false;
        return true;
    }

    private static boolean unreserved(char c) {
        return (c >= 'a' && c <= 'z')
                || (c >= 'A' && c <= 'Z')
                || (c >= '0' && c <= '9')
                || c == '-'
                || c == '.'
                || c == '_'
                || c == '~';
    }

    private static boolean subDelim(char c) {
        return "!$&'()*+,;=".indexOf(c) >= 0;
    }

    private static boolean hex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    /** At most 40 characters, control characters as '?'. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(40, s.length()); i++) {
            char c = s.charAt(i);
            b.append(c < ' ' || c > '~' || c == '"' ? '?' : c);
        }
        return s.length() > 40 ? b + "..." : b.toString();
    }
}
