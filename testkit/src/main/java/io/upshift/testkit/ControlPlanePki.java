package io.upshift.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.Date;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * The keys and certificates of a control plane started for tests, made new for each (as {@code
 * kubeadm init phase certs} would, only fewer): a CA, the API server's serving certificate for
 * 127.0.0.1 and localhost signed by it, and the key pair service-account tokens are signed and
 * checked with. Written as PEM files into the control plane's folder.
 */
final class ControlPlanePki {
    final Path caCert;
    final Path serverCert;
    final Path serverKey;
    final Path serviceAccountKey;
    final Path serviceAccountPublicKey;
    private final X509Certificate ca;

    private ControlPlanePki(Path dir, X509Certificate ca) {
        this.caCert = dir.resolve("ca.crt");
        this.serverCert = dir.resolve("apiserver.crt");
        this.serverKey = dir.resolve("apiserver.key");
        this.serviceAccountKey = dir.resolve("sa.key");
        this.serviceAccountPublicKey = dir.resolve("sa.pub");
        this.ca = ca;
    }

    static ControlPlanePki write(Path dir) {
        try {
            KeyPair caKey = rsa();
            X500Name caName = new X500Name("CN=upshift-test-kubernetes-ca");
            JcaX509v3CertificateBuilder caBuilder = builder(caName, caName, caKey);
            caBuilder.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            caBuilder.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(
                            KeyUsage.keyCertSign | KeyUsage.cRLSign | KeyUsage.digitalSignature));
            X509Certificate ca = sign(caBuilder, caKey);
            ControlPlanePki pki = new ControlPlanePki(dir, ca);

            KeyPair serverKey = rsa();
            JcaX509v3CertificateBuilder server =
                    builder(new X500Name("CN=kube-apiserver"), caName, serverKey);
            server.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            server.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(KeyUsage.digitalSignature | KeyUsage.keyEncipherment));
            server.addExtension(
                    Extension.extendedKeyUsage,
                    false,
                    new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            server.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(
                            new GeneralName[] {
                                new GeneralName(GeneralName.iPAddress, "127.0.0.1"),
                                new GeneralName(GeneralName.dNSName, "localhost")
                            }));
            X509Certificate serverCert = sign(server, caKey);

            KeyPair sa = rsa();
            Files.writeString(pki.caCert, pem(ca));
            Files.writeString(pki.serverCert, pem(serverCert) + pem(ca));
            Files.writeString(pki.serverKey, pem(serverKey.getPrivate()));
            Files.writeString(pki.serviceAccountKey, pem(sa.getPrivate()));
            Files.writeString(pki.serviceAccountPublicKey, pem(sa.getPublic()));
            return pki;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot make the control plane's PKI: " + e, e);
        }
    }

    /** The CA's certificate as a kubeconfig's {@code certificate-authority-data} holds it. */
    String caData() {
        try {
            return Base64.getEncoder().encodeToString(pem(ca).getBytes(UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A TLS context that trusts this CA alone. */
    SSLContext trust() {
        try {
            KeyStore trusted = KeyStore.getInstance(KeyStore.getDefaultType());
            trusted.load(null, null);
            trusted.setCertificateEntry("ca", ca);
            TrustManagerFactory tmf =
                    TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            tmf.init(trusted);
            SSLContext tls = SSLContext.getInstance("TLS");
            tls.init(null, tmf.getTrustManagers(), null);
            return tls;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust the control plane's CA: " + e, e);
        }
    }

    private static JcaX509v3CertificateBuilder builder(
            X500Name subject, X500Name issuer, KeyPair key) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(
                issuer,
                BigInteger.valueOf(now.toEpochMilli()).add(BigInteger.valueOf(System.nanoTime())),
                Date.from(now.minus(Duration.ofHours(1))),
                Date.from(now.plus(Duration.ofDays(7))),
                subject,
                key.getPublic());
    }

    private static X509Certificate sign(JcaX509v3CertificateBuilder b, KeyPair signer)
            throws Exception {
        return new JcaX509CertificateConverter()
                .getCertificate(
                        b.build(
                                new JcaContentSignerBuilder("SHA256withRSA")
                                        .build(signer.getPrivate())));
    }

    private static KeyPair rsa() throws GeneralSecurityException {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static String pem(Object object) throws IOException {
        StringWriter out = new StringWriter();
        try (JcaPEMWriter w = new JcaPEMWriter(out)) {
            w.writeObject(object);
        }
        return out.toString();
    }
}
