package io.upshift.testkit;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.math.BigInteger;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.cert.Certificate;
import java.security.cert.X509Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A certificate authority made for one test, as a cluster's service CA or a proxy's CA is: its
 * certificate in PEM (what a client is told to trust) and server certificates it signs for given
 * DNS names and IP addresses, each as an {@link SSLContext} a test server serves with. Nothing is
 * written to disk; every key is new.
 */
public final class TestCertificates {

    private static final AtomicLong SERIAL = new AtomicLong(System.nanoTime());

    private final KeyPair key;
    private final X509Certificate certificate;

    private TestCertificates(KeyPair key, X509Certificate certificate) {
        this.key = key;
        this.certificate = certificate;
    }

    /** A new self-signed CA named {@code cn}, valid for a day. */
    public static TestCertificates authority(String cn) {
        try {
            KeyPair key = rsa();
            X500Name name = new X500Name("CN=" + cn);
            JcaX509v3CertificateBuilder b = builder(name, name, key);
            b.addExtension(Extension.basicConstraints, true, new BasicConstraints(true));
            b.addExtension(
                    Extension.keyUsage,
                    true,
                    new KeyUsage(KeyUsage.keyCertSign | KeyUsage.cRLSign));
            return new TestCertificates(key, sign(b, key));
        } catch (Exception e) {
            throw new IllegalStateException("cannot make a test CA: " + e, e);
        }
    }

    /** The CA's certificate in PEM, as a CA bundle file or ConfigMap key holds it. */
    public String pem() {
        return pem(certificate);
    }

    /**
     * A server certificate signed by this CA for {@code names} (IP addresses become IP
     * subjectAltNames, anything else DNS ones), as the context a server serves it with.
     */
    public SSLContext server(String... names) {
        try {
            KeyPair serverKey = rsa();
            JcaX509v3CertificateBuilder b =
                    builder(
                            new X500Name("CN=" + names[0]),
                            X500Name.getInstance(
                                    certificate.getSubjectX500Principal().getEncoded()),
                            serverKey);
            List<GeneralName> alt = new ArrayList<>();
            for (String n : names)
                alt.add(
                        new GeneralName(
                                n.matches("[0-9.]+|.*:.*")
                                        ? GeneralName.iPAddress
                                        : GeneralName.dNSName,
                                n));
            b.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(alt.toArray(GeneralName[]::new)));
            X509Certificate leaf = sign(b, key);
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(null, null);
            char[] password = "test".toCharArray();
            store.setKeyEntry(
                    "server",
                    serverKey.getPrivate(),
                    password,
                    new Certificate[] {leaf, certificate});
            KeyManagerFactory kmf =
                    KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            kmf.init(store, password);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(kmf.getKeyManagers(), null, null);
            return context;
        } catch (Exception e) {
            throw new IllegalStateException("cannot make a test server certificate: " + e, e);
        }
    }

    private static JcaX509v3CertificateBuilder builder(
            X500Name subject, X500Name issuer, KeyPair key) {
        Instant now = Instant.now();
        return new JcaX509v3CertificateBuilder(
                issuer,
                BigInteger.valueOf(SERIAL.incrementAndGet()),
                Date.from(now.minus(Duration.ofMinutes(5))),
                Date.from(now.plus(Duration.ofDays(1))),
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

    private static KeyPair rsa() throws Exception {
        KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
        g.initialize(2048);
        return g.generateKeyPair();
    }

    private static String pem(X509Certificate c) {
        try {
            return "-----BEGIN CERTIFICATE-----\n"
                    + Base64.getMimeEncoder(64, "\n".getBytes(UTF_8)).encodeToString(c.getEncoded())
                    + "\n-----END CERTIFICATE-----\n";
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
