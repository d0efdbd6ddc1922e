package io.upshift.runtime.metrics;

import java.io.IOException;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.Principal;
import java.security.PrivateKey;
import java.security.cert.X509Certificate;
import java.time.Instant;
import java.util.HexFormat;
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
 *
 * <p>Where no certificate is given, or where its files are not there yet ({@link #untilMounted}: an
 * optional Secret volume, which a plain cluster leaves empty and OpenShift's service CA fills), a
 * self-signed one made at start ({@link SelfSigned}) is served: the scrape is encrypted, though its
 * scraper cannot verify whom it talks to (it skips verification, or pins the fingerprint the log
 * gives). Once both files are there, theirs is served from the next handshake on.
 */
public final class ServingCertificate extends X509ExtendedKeyManager {
    private static final Logger LOG = LoggerFactory.getLogger(ServingCertificate.class);
    private static final String ALIAS = "serving-";

    private final Path certFile, keyFile; // null: self-signed only
    private volatile Loaded loaded;

    /**
     * The pair served before the last change: a handshake that chose it just before the change
     * still gets it whole.
     */
    private volatile Loaded previous;

    /**
     * One read of the pair; {@code generation} names it in aliases. The times are null until the
     * files were seen (a self-signed pair served while they are not there).
     */
    private record Loaded(
            FileTime certTime,
            FileTime keyTime,
            PemFiles.Identity identity,
            int generation,
            boolean selfSigned) {
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
                certFile, keyFile, new Loaded(c, k, PemFiles.read(certFile, keyFile), 0, false));
    }

    /**
     * A certificate made now for {@code names} (DNS names and IP addresses), signed by its own key,
     * served until the process ends.
     */
    public static ServingCertificate selfSigned(List<String> names, Instant now)
            throws GeneralSecurityException {
        return new ServingCertificate(
                null, null, new Loaded(null, null, SelfSigned.make(names, now), 0, true));
    }

    /**
     * The pair in {@code certFile} and {@code keyFile} when both are there; while neither is, a
     * self-signed certificate for {@code names}, until they appear. One without the other, or a
     * pair that does not read, is refused.
     */
    public static ServingCertificate untilMounted(
            Path certFile, Path keyFile, List<String> names, Instant now)
            throws IOException, GeneralSecurityException {
        if (Files.exists(certFile) || Files.exists(keyFile)) return load(certFile, keyFile);
        return new ServingCertificate(
                certFile, keyFile, new Loaded(null, null, SelfSigned.make(names, now), 0, true));
    }

    /** Whether the certificate served now is the self-signed one. */
    public boolean isSelfSigned() {
        return current().selfSigned();
    }

    /** The certificate served now (the chain's leaf). */
    public X509Certificate certificate() {
        return current().identity().chain().get(0);
    }

    /** The SHA-256 fingerprint of {@link #certificate()}, as {@code openssl x509 -fingerprint}. */
    public String fingerprint() {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(certificate().getEncoded());
            return HexFormat.ofDelimiter(":").withUpperCase().formatHex(d);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A TLS 1.2+ server context serving this certificate. */
    public SSLContext context() throws GeneralSecurityException {
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(new KeyManager[] {this}, null, null);
        return context;
    }

    /** The pair to serve now: read again when a file changed since the last read. */
    @SuppressWarnings("ReferenceEquality") // has another thread replaced this very pair?
    private Loaded current() {
        Loaded l = loaded;
        if (certFile == null) return l;
        try {
            FileTime c = Files.getLastModifiedTime(certFile),
                    k = Files.getLastModifiedTime(keyFile);
            if (c.equals(l.certTime()) && k.equals(l.keyTime())) return l;
            synchronized (this) {
                if (loaded != l) return loaded;
                try {
                    Loaded next =
                            new Loaded(
                                    c,
                                    k,
                                    PemFiles.read(certFile, keyFile),
                                    l.generation() + 1,
                                    false);
                    previous = l;
                    loaded = next;
                    if (l.selfSigned())
                        LOG.info(
                                "metrics: serving the certificate of {} from now on, in place of"
                                        + " the self-signed one",
                                certFile);
                    else LOG.info("metrics: serving the certificate read again from {}", certFile);
                } catch (IOException | GeneralSecurityException e) {
                    // a half-written pair reads again at its next change; until then the last good
                    // pair is served
                    loaded = new Loaded(c, k, l.identity(), l.generation(), l.selfSigned());
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
