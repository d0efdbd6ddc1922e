package io.upshift.runtime.metrics;

import java.math.BigInteger;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Date;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.regex.Pattern;
import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.CertIOException;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

/**
 * A serving certificate made at start and signed by its own key (ECDSA P-256, a year from an hour
 * ago), as controller-runtime's metrics server and many operators make one when none is mounted. It
 * is never written anywhere: a new one is made at each start.
 */
final class SelfSigned {
    private static final Duration VALID = Duration.ofDays(365);
    private static final Pattern IPV4 = Pattern.compile("[0-9]{1,3}(\\.[0-9]{1,3}){3}");

    private SelfSigned() {}

    /**
     * @param names the DNS names and IP addresses it is for; the first is its common name
     */
    static PemFiles.Identity make(List<String> names, Instant now) throws GeneralSecurityException {
        List<String> all = List.copyOf(new LinkedHashSet<>(names));
        if (all.isEmpty()) throw new IllegalArgumentException("a certificate for no name");
        KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
        generator.initialize(new ECGenParameterSpec("secp256r1"), new SecureRandom());
        KeyPair pair = generator.generateKeyPair();
        X500Name subject = new X500Name("CN=" + common(all.get(0)) + ",O=upshift self-signed");
        List<GeneralName> alternatives = new ArrayList<>();
        for (String n : all) {
            alternatives.add(
                    IPV4.matcher(n).matches() || n.contains(":")
                            ? new GeneralName(GeneralName.iPAddress, n)
                            : new GeneralName(GeneralName.dNSName, n));
        }
        try {
            JcaX509v3CertificateBuilder builder =
                    new JcaX509v3CertificateBuilder(
                            subject,
                            new BigInteger(127, new SecureRandom()).add(BigInteger.ONE),
                            Date.from(now.minus(Duration.ofHours(1))), // clocks a little behind
                            Date.from(now.plus(VALID)),
                            subject,
                            pair.getPublic());
            builder.addExtension(
                    Extension.subjectAlternativeName,
                    false,
                    new GeneralNames(alternatives.toArray(GeneralName[]::new)));
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.keyUsage, true, new KeyUsage(KeyUsage.digitalSignature));
            builder.addExtension(
                    Extension.extendedKeyUsage,
                    false,
                    new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            X509Certificate certificate =
                    new JcaX509CertificateConverter()
                            .getCertificate(
                                    builder.build(
                                            new JcaContentSignerBuilder("SHA256withECDSA")
                                                    .build(pair.getPrivate())));
            return new PemFiles.Identity(List.of(certificate), pair.getPrivate());
        } catch (CertIOException | OperatorCreationException e) {
            throw new GeneralSecurityException("cannot make a self-signed certificate: " + e, e);
        }
    }

    /** A common name holds at most 64 characters. */
    private static String common(String name) {
        String safe = name.replaceAll("[,+=\"\\\\<>;#]", "-");
        return safe.length() > 64 ? safe.substring(0, 64) : safe;
    }
}
