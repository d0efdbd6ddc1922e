package io.upshift.runtime.metrics;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.util.List;
import javax.net.ssl.KeyManager;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.X509ExtendedKeyManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The metrics endpoint's serving certificate, from a PEM certificate (chain) file and key file,
 * read again when either file changes (a rotated Secret is updated in place in a running pod), as
 * upstream's operator watches its serving certificate. A change that does not read as a matching
 * pair keeps the pair last read, with a warning.
 */
public final class ServingCertificate extends X509ExtendedKeyManager {
    private static final Logger LOG = LoggerFactory.getLogger(ServingCertificate.class);
    private static final String ALIAS = "serving-";

    private final Path certFile, keyFile;
    private volatile Loaded loaded;

    /**
     * The pair served before the last change: a handshake that chose it just before the change
     * still gets it whole.
     */
    private volatile Loaded previous;

    /** One read of the pair; {@code generation} names it in aliases. */
    private record Loaded(
            FileTime certTime, FileTime keyTime, PemFiles.Identity identity, int generation) {
        String alias() {
            return ALIAS + generation;
        }
    }

    private ServingCertificate(Path certFile, Path keyFile, Loaded loaded) {
        this.certFile = certFile;
        this.keyFile = keyFile;
        this.loaded = loaded;
    }

    /** Reads the pair; fails when it does not read as a certificate and its key. */
    public static ServingCertificate load(Path certFile, Path keyFile)
            throws IOException, GeneralSecurityException {
        FileTime c = Files.getLastModifiedTime(certFile), k = Files.getLastModifiedTime(keyFile);
        return new ServingCertificate(
                certFile, keyFile, new Loaded(c, k, PemFiles.read(certFile, keyFile), 0));
    }

    /** A TLS 1.2+ server context serving this certificate. */
    public SSLContext context() throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {this}, null, null);
        return context;
    }

    /** The pair to serve now: read again when a file changed since the last read. */
    private Loaded current() {
        Loaded l = loaded;
        try {
            FileTime c = Files.getLastModifiedTime(certFile),
                    k = Files.getLastModifiedTime(keyFile);
            if (c.equals(l.certTime()) && k.equals(l.keyTime())) return l;
            synchronized (this) {
                if (loaded != l) return loaded;
                try {
                    Loaded next =
                            new Loaded(c, k, PemFiles.read(certFile, keyFile), l.generation() + 1);
                    previous = l;
                    loaded = next;
                    LOG.info("metrics: serving the certificate read again from {}", certFile);
                } catch (IOException | GeneralSecurityException e) {
                    // a half-written pair reads again at its next change; until then the last good
                    // pair is served
                    loaded = new Loaded(c, k, l.identity(), l.generation());
                    LOG.warn(
                            "metrics: {} or {} changed but does not read as a certificate and its"
                                    + " key, still serving the last one: {}",
                            certFile,
                            keyFile,
                            e.getMessage());
                }
                return loaded;
            }
        } catch (IOException e) {
            return l;
        }
    }

    /**
     * The current pair's alias when it can serve {@code keyType} ("RSA", "EC", "EC_RSA"...), else
     * none.
     */
    private String alias(String keyType) {
        Loaded l = current();
        String algorithm = l.identity().key().getAlgorithm();
        return keyType == null || keyType.equals(algorithm) || keyType.startsWith(algorithm + "_")
                ? l.alias()
                : null;
    }

    private PemFiles.Identity identity(String alias) {
        Loaded l = loaded, p = previous;
        if (p != null && p.alias().equals(alias) && !l.alias().equals(alias)) return p.identity();
        return l.identity();
    }

    @Override
    public String chooseEngineServerAlias(String keyType, Principal[] issuers, SSLEngine engine) {
        return alias(keyType);
    }

    @Override
    public String chooseServerAlias(String keyType, Principal[] issuers, Socket socket) {
        return alias(keyType);
    }

    @Override
    public String[] getServerAliases(String keyType, Principal[] issuers) {
        String alias = alias(keyType);
        return alias == null ? null : new String[] {alias};
    }

    @Override
    public X509Certificate[] getCertificateChain(String alias) {
        List<X509Certificate> chain = identity(alias).chain();
        return chain.toArray(new X509Certificate[0]);
    }

    @Override
    public PrivateKey getPrivateKey(String alias) {
        return identity(alias).key();
    }

    @Override
    public String[] getClientAliases(String keyType, Principal[] issuers) {
        return null;
    }

    @Override
    public String chooseClientAlias(String[] keyType, Principal[] issuers, Socket socket) {
        return null;
    }
}
