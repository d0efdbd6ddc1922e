package io.upshift.runtime.tls;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.net.Socket;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;
import javax.net.ssl.X509TrustManager;

/**
 * The certificate authorities a client trusts, read from a PEM bundle as Go's {@code
 * x509.CertPool.AppendCertsFromPEM} reads one: every {@code CERTIFICATE} block that parses, the
 * rest (text, other blocks, broken certificates) skipped. A context made from it trusts these
 * authorities alone, in place of the system's, as upstream's {@code tls.Config{RootCAs: pool}}
 * does.
 */
public record CaBundle(List<X509Certificate> certificates) {

    private static final Pattern BLOCK =
            Pattern.compile(
                    "-----BEGIN CERTIFICATE-----\\s*([A-Za-z0-9+/=\\s]*?)-----END"
                            + " CERTIFICATE-----");

    public CaBundle {
        certificates = List.copyOf(certificates);
    }

    /** The certificates of {@code pem} that parse; none when nothing does. */
    public static CaBundle parse(String pem) {
        List<X509Certificate> out = new ArrayList<>();
        Matcher m = BLOCK.matcher(pem == null ? "" : pem);
        while (m.find()) {
            try {
                byte[] der = Base64.getMimeDecoder().decode(m.group(1));
                out.add(
                        (X509Certificate)
                                CertificateFactory.getInstance("X.509")
                                        .generateCertificate(new ByteArrayInputStream(der)));
            } catch (IllegalArgumentException | CertificateException skipped) {
                // as Go's pool: a block that does not parse adds nothing
            }
        }
        return new CaBundle(out);
    }

    public boolean isEmpty() {
        return certificates.isEmpty();
    }

    /** A context trusting these authorities alone, the server named as the URL names it. */
    public SSLContext context() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {pkix(certificates)}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * A context that checks the server's certificate against these authorities (the system's when
     * this bundle is empty) and against {@code serverName}, whatever address the connection was
     * made to: what Go's {@code tls.Config.ServerName} does for a client that dials a Service's
     * cluster IP but knows the Service by its DNS name. (Java checks a name only against the
     * connection's own host, and none at all for an IP address; this checks it here.)
     */
    public SSLContext context(String serverName) {
        try {
            X509TrustManager chain = isEmpty() ? pkix(null) : pkix(certificates);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new NamedServer(chain, serverName)}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a TLS context: " + e.getMessage(), e);
        }
    }

    /**
     * A context that checks neither the server's certificate nor its name: what a kubeconfig's
     * {@code insecure-skip-tls-verify: true} asks of every connection made with its credentials, as
     * Go's {@code tls.Config{InsecureSkipVerify: true}}. For nothing else.
     */
    public static SSLContext unverified() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {new Unverified()}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a TLS context: " + e.getMessage(), e);
        }
    }

    /** Trusts any server, as a kubeconfig's insecure-skip-tls-verify asks. */
    private static final class Unverified extends X509ExtendedTrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType) {}

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType, Socket s) {}

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine e) {}

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType)
                throws CertificateException {
            throw new CertificateException("a client's trust does not check clients");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType, Socket s)
                throws CertificateException {
            checkClientTrusted(certs, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine e)
                throws CertificateException {
            checkClientTrusted(certs, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }

    /** The PKIX trust manager of {@code roots}; the system's for null. */
    private static X509TrustManager pkix(List<X509Certificate> roots)
            throws GeneralSecurityException {
        KeyStore store = null;
        if (roots != null) {
            store = KeyStore.getInstance(KeyStore.getDefaultType());
            try {
                store.load(null, null);
            } catch (IOException e) {
                throw new GeneralSecurityException(e);
            }
            for (int i = 0; i < roots.size(); i++)
                store.setCertificateEntry("ca-" + i, roots.get(i));
        }
        TrustManagerFactory f =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        f.init(store);
        for (TrustManager t : f.getTrustManagers()) if (t instanceof X509TrustManager x) return x;
        throw new GeneralSecurityException("no X.509 trust manager");
    }

    /** Checks the chain, then that its leaf names {@code serverName}. */
    private static final class NamedServer extends X509ExtendedTrustManager {
        private final X509TrustManager chain;
        private final String serverName;

        NamedServer(X509TrustManager chain, String serverName) {
            this.chain = chain;
            this.serverName = serverName;
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType)
                throws CertificateException {
            chain.checkServerTrusted(certs, authType);
            ServerNames.check(certs[0], serverName);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType, Socket s)
                throws CertificateException {
            checkServerTrusted(certs, authType);
        }

        @Override
        public void checkServerTrusted(X509Certificate[] certs, String authType, SSLEngine e)
                throws CertificateException {
            checkServerTrusted(certs, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType)
                throws CertificateException {
            throw new CertificateException("a client's trust does not check clients");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType, Socket s)
                throws CertificateException {
            checkClientTrusted(certs, authType);
        }

        @Override
        public void checkClientTrusted(X509Certificate[] certs, String authType, SSLEngine e)
                throws CertificateException {
            checkClientTrusted(certs, authType);
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return chain.getAcceptedIssuers();
        }
    }
}
