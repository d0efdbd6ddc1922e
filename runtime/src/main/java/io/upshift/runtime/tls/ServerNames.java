package io.upshift.runtime.tls;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.security.cert.CertificateException;
import java.security.cert.CertificateParsingException;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;

/**
 * Whether a server certificate names the host a client wants, as Go's {@code
 * x509.Certificate.VerifyHostname} decides: an IP address against the IP subjectAltNames, a name
 * against the DNS subjectAltNames (case-insensitive, a trailing dot ignored, {@code *.} standing
 * for exactly one leftmost label); the subject's common name is not a name.
 */
final class ServerNames {
    private static final int DNS = 2, IP = 7;

    private ServerNames() {}

    static void check(X509Certificate leaf, String host) throws CertificateException {
        String wanted = host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
        InetAddress ip = literal(wanted);
        List<String> valid = new ArrayList<>();
        for (List<?> san : altNames(leaf)) {
            int type = (Integer) san.get(0);
            String value = String.valueOf(san.get(1));
            if (type == IP) {
                valid.add(value);
                if (ip != null && ip.equals(literal(value))) return;
            } else if (type == DNS) {
                valid.add(value);
                if (ip == null && matches(value, wanted)) return;
            }
        }
        throw new CertificateException(
                valid.isEmpty()
                        ? "x509: certificate is not valid for any names, but wanted to match "
                                + host
                        : "x509: certificate is valid for "
                                + String.join(", ", valid)
                                + ", not "
                                + host);
    }

    private static Collection<List<?>> altNames(X509Certificate leaf)
            throws CertificateParsingException {
        Collection<List<?>> names = leaf.getSubjectAlternativeNames();
        return names == null ? List.of() : names;
    }

    private static boolean matches(String pattern, String host) {
        String p = trimDot(pattern.toLowerCase(Locale.ROOT));
        String h = trimDot(host.toLowerCase(Locale.ROOT));
        if (p.isEmpty() || h.isEmpty()) return false;
        if (!p.startsWith("*.")) return p.equals(h);
        int dot = h.indexOf('.');
        return dot > 0 && h.substring(dot + 1).equals(p.substring(2));
    }

    private static String trimDot(String s) {
        return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
    }

    /** The address {@code s} writes, or null when it is a name (no lookup is made). */
    static InetAddress literal(String s) {
        boolean v4 = s.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = s.contains(":") && s.matches("[0-9A-Fa-f:.]+(%.+)?");
        if (!v4 && !v6) return null;
        if (v4) {
            for (String octet : s.split("\\.")) if (Integer.parseInt(octet) > 255) return null;
        }
        try {
            return InetAddress.getByName(s); // a literal: parsed, never resolved
        } catch (UnknownHostException e) {
            return null;
        }
    }
}
