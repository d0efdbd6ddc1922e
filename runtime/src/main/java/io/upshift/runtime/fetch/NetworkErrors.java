package io.upshift.runtime.fetch;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.net.http.HttpTimeoutException;
import java.nio.channels.UnresolvedAddressException;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLException;

/**
 * A request that got no answer, in words that name the address and what happened, whichever client
 * sent it (the JDK's, fabric8's on Netty): "cannot connect to 127.0.0.1:6443: connection refused",
 * "unknown host api.example", "TLS handshake failed: ...".
 */
public final class NetworkErrors {

    private NetworkErrors() {}

    private static final Pattern REFUSED_AT = Pattern.compile("Connection refused: /?(\\S+)");

    /**
     * A request that got no answer, in words that name the address and what happened: "cannot
     * connect to 127.0.0.1:6443: connection refused", "unknown host api.example"; null for any
     * other failure.
     */
    public static String unanswered(Throwable t) {
        return unanswered(t, null);
    }

    /** As {@link #unanswered(Throwable)}, naming {@code address} where the failure names none. */
    public static String unanswered(Throwable t, String address) {
        Throwable refused = null, unknown = null, tls = null, timeout = null;
        for (Throwable c = t; c != null; c = c.getCause() == c ? null : c.getCause()) {
            Matcher m = REFUSED_AT.matcher(String.valueOf(c.getMessage()));
            if (m.find()) address = m.group(1);
            if (c instanceof ConnectException) refused = c;
            if (c instanceof UnknownHostException || c instanceof UnresolvedAddressException)
                unknown = c;
            if (c instanceof SSLException && tls == null) tls = c;
            if (c instanceof SocketTimeoutException
                    || c instanceof HttpTimeoutException
                    || c instanceof TimeoutException) timeout = c;
        }
        if (unknown != null)
            return unknown.getMessage() == null
                    ? "unknown host"
                    : "unknown host " + unknown.getMessage();
        if (refused != null)
            return (address != null ? "cannot connect to " + address + ": " : "")
                    + "connection refused";
        if (timeout != null)
            return "no answer in time (" + firstLine(String.valueOf(timeout.getMessage())) + ")";
        if (tls != null) {
            Throwable root = tls;
            while (root.getCause() != null && root.getCause() != root) root = root.getCause();
            return "TLS handshake failed: " + firstLine(String.valueOf(root.getMessage()));
        }
        return null;
    }

    private static String firstLine(String m) {
        return m.lines().findFirst().orElse(m).strip();
    }
}
