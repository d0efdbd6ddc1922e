package io.upshift.runtime.http;

import io.netty.handler.codec.http.DefaultHttpRequest;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpMessage;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpRequestDecoder;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.util.AsciiString;

/**
 * Netty's HTTP/1.x request decoder, held to RFC 9112 where it is lenient about what decides how a
 * request is framed: the version as sent ({@code HTTP/} DIGIT {@code .} DIGIT, case-sensitive,
 * where Netty reads {@code http/1.1} and {@code HTTP/9.9} as versions), header names that are
 * tokens (Netty keeps {@code Transfer-Encoding :} as a name of its own, which one server ignores
 * and another honours: the shape of request smuggling), and no Transfer-Encoding beside a
 * Content-Length (Netty drops the length and goes on). What it refuses becomes the decoder's
 * failure, answered by {@link Connection} with the status a {@link Refused} carries, and the
 * connection closed.
 */
final class RequestDecoder extends HttpRequestDecoder {

    /** tchar of RFC 9110 §5.6.2, by byte. */
    private static final boolean[] TCHAR = new boolean[128];

    static {
        for (char c = '0'; c <= '9'; c++) TCHAR[c] = true;
        for (char c = 'a'; c <= 'z'; c++) TCHAR[c] = true;
        for (char c = 'A'; c <= 'Z'; c++) TCHAR[c] = true;
        for (char c : "!#$%&'*+-.^_`|~".toCharArray()) TCHAR[c] = true;
    }

    RequestDecoder(HttpDecoderConfig config) {
        super(config);
    }

    /**
     * A request the server will not read further: answered with {@code status} and one line, then
     * the connection closed.
     */
    static final class Refused extends RuntimeException {
        final int status;

        Refused(int status, String message) {
            super(message, null, false, false);
            this.status = status;
        }
    }

    @Override
    protected HttpMessage createMessage(String[] initialLine) throws Exception {
        String version = initialLine[2];
        if (version.equals("HTTP/1.1") || version.equals("HTTP/1.0"))
            return super.createMessage(initialLine);
        if (version.length() != 8
                || !version.startsWith("HTTP/")
                || !digit(version.charAt(5))
                || version.charAt(6) != '.'
                || !digit(version.charAt(7))) {
            throw new Refused(
                    400, "not an HTTP/1.x request: \"" + printable(version) + "\" is no version");
        }
        if (version.charAt(5) != '1') {
            throw new Refused(
                    505, "HTTP/1.1 and HTTP/1.0 are served, not " + version.substring(0, 8));
        }
        // a later HTTP/1.x is read as the highest minor version this server implements (RFC 9110
        // §6.2)
        return new DefaultHttpRequest(
                HttpVersion.HTTP_1_1,
                HttpMethod.valueOf(initialLine[0]),
                initialLine[1],
                headersFactory);
    }

    @Override
    protected AsciiString splitHeaderName(byte[] sb, int start, int length) {
        // for a request the name runs to the colon, so "Name :" or "Name\t:" arrive here whole
        for (int i = start, end = start + length; i < end; i++) {
            byte b = sb[i];
            if (b < 0 || !TCHAR[b]) {
                throw new Refused(
                        400,
                        "a header name holds "
                                + (b == ' ' || b == '\t'
                                        ? "white space (none may come before its colon)"
                                        : "a character that is not a token's"));
            }
        }
        if (length == 0) throw new Refused(400, "a header line without a name");
        return super.splitHeaderName(sb, start, length);
    }

    @Override
    protected void handleTransferEncodingChunkedWithContentLength(HttpMessage message) {
        // RFC 9112 §6.3: a server may reject such a request, and must then close the connection
        throw new Refused(
                400,
                "a request with both Transfer-Encoding and Content-Length cannot be framed"
                        + " reliably");
    }

    private static boolean digit(char c) {
        return c >= '0' && c <= '9';
    }

    /** At most 20 characters of {@code s}, control characters as '?'. */
    private static String printable(String s) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < Math.min(20, s.length()); i++) {
            char c = s.charAt(i);
            b.append(c < ' ' || c > '~' ? '?' : c);
        }
        return s.length() > 20 ? b + "..." : b.toString();
    }
}
