package io.upshift.runtime.metrics;

import java.io.IOException;
import java.io.StringReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;
import org.bouncycastle.asn1.pkcs.PrivateKeyInfo;
import org.bouncycastle.openssl.PEMException;
import org.bouncycastle.openssl.PEMKeyPair;
import org.bouncycastle.openssl.PEMParser;
import org.bouncycastle.openssl.jcajce.JcaPEMKeyConverter;

/**
 * A serving certificate chain and its private key read from PEM files, as Kubernetes TLS Secrets
 * hold them ({@code tls.crt}, {@code tls.key}): the key in PKCS#8 ({@code PRIVATE KEY}), PKCS#1
 * ({@code RSA PRIVATE KEY}, what OpenShift's service CA and cert-manager write by default) or SEC 1
 * ({@code EC PRIVATE KEY}). Encrypted keys are not read.
 */
final class PemFiles {
    private static final JcaPEMKeyConverter KEYS = new JcaPEMKeyConverter();

    /** A chain, leaf first, and the leaf's key. */
    record Identity(List<X509Certificate> chain, PrivateKey key) {}

    private PemFiles() {}

    static Identity read(Path certFile, Path keyFile) throws IOException, GeneralSecurityException {
        List<X509Certificate> chain;
        try (var in = Files.newInputStream(certFile)) {
            chain =
                    CertificateFactory.getInstance("X.509").generateCertificates(in).stream()
                            .map(c -> (X509Certificate) c)
                            .toList();
        } catch (GeneralSecurityException e) {
            throw new GeneralSecurityException(
                    certFile + ": not a PEM certificate: " + e.getMessage(), e);
        }
        if (chain.isEmpty())
            throw new GeneralSecurityException(certFile + ": holds no certificate");
        PrivateKey key = privateKey(Files.readString(keyFile), keyFile.toString());
        if (!matches(chain.get(0).getPublicKey(), key)) {
            throw new GeneralSecurityException(
                    keyFile
                            + " is not the key of "
                            + certFile
                            + "'s certificate ("
                            + key.getAlgorithm()
                            + " key, "
                            + chain.get(0).getPublicKey().getAlgorithm()
                            + " certificate)");
        }
        return new Identity(chain, key);
    }

    /**
     * The private key is the certificate's: what it signs, the certificate's public key verifies. A
     * certificate and key from two rotations (one file updated, not yet the other) do not make a
     * pair.
     */
    private static boolean matches(PublicKey certified, PrivateKey key)
            throws GeneralSecurityException {
        if (!certified.getAlgorithm().equals(key.getAlgorithm())) return false;
        String algorithm =
                switch (key.getAlgorithm()) {
                    case "RSA" -> "SHA256withRSA";
                    case "EC" -> "SHA256withECDSA";
                    case "EdDSA", "Ed25519" -> "Ed25519";
                    default -> null;
                };
        if (algorithm == null) return true; // not checked: the handshake will tell
        byte[] probe = "upshift serving certificate".getBytes(StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(probe);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(certified);
        verifier.update(probe);
        return verifier.verify(signature);
    }

    /**
     * The first private key in {@code pem}: PKCS#8, PKCS#1 RSA or SEC 1 EC, as Bouncy Castle's PEM
     * parser reads them.
     */
    static PrivateKey privateKey(String pem, String source) throws GeneralSecurityException {
        if (pem.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----")
                || pem.contains("Proc-Type: 4,ENCRYPTED")) {
            throw new GeneralSecurityException(
                    source + ": an encrypted key; give it unencrypted (a Secret's tls.key is)");
        }
        try (PEMParser parser = new PEMParser(new StringReader(pem))) {
            for (Object o = parser.readObject(); o != null; o = parser.readObject()) {
                if (o instanceof PEMKeyPair pair)
                    return KEYS.getPrivateKey(pair.getPrivateKeyInfo());
                if (o instanceof PrivateKeyInfo info) return KEYS.getPrivateKey(info);
            }
        } catch (PEMException e) {
            throw new GeneralSecurityException(
                    source + ": not a key this reads (" + e.getMessage() + ")", e);
        } catch (IOException e) {
            throw new GeneralSecurityException(source + ": not PEM: " + e.getMessage(), e);
        }
        throw new GeneralSecurityException(
                source
                        + ": no PEM private key (BEGIN PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE"
                        + " KEY)");
    }
}
