package io.upshift.operator.metrics;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.PublicKey;
import java.security.Signature;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.security.spec.PKCS8EncodedKeySpec;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A serving certificate chain and its private key read from PEM files, as Kubernetes TLS Secrets hold them
 * ({@code tls.crt}, {@code tls.key}): the key in PKCS#8 ({@code PRIVATE KEY}), PKCS#1 ({@code RSA PRIVATE KEY}, what
 * OpenShift's service CA and cert-manager write by default) or SEC 1 ({@code EC PRIVATE KEY}). Encrypted keys are not
 * read.
 */
final class PemFiles {
    private static final Pattern KEY = Pattern.compile("-----BEGIN ([A-Z ]*)PRIVATE KEY-----([A-Za-z0-9+/=\\s]+)-----END \\1PRIVATE KEY-----");
    private static final byte[] RSA_OID = {0x06, 0x09, 0x2a, (byte) 0x86, 0x48, (byte) 0x86, (byte) 0xf7, 0x0d, 0x01, 0x01, 0x01};
    private static final byte[] EC_OID = {0x06, 0x07, 0x2a, (byte) 0x86, 0x48, (byte) 0xce, 0x3d, 0x02, 0x01};

    /** A chain, leaf first, and the leaf's key. */
    record Identity(List<X509Certificate> chain, PrivateKey key) {
    }

    private PemFiles() {
    }

    static Identity read(Path certFile, Path keyFile) throws IOException, GeneralSecurityException {
        List<X509Certificate> chain;
        try (var in = Files.newInputStream(certFile)) {
            chain = CertificateFactory.getInstance("X.509").generateCertificates(in).stream().map(c -> (X509Certificate) c).toList();
        } catch (GeneralSecurityException e) {
            throw new GeneralSecurityException(certFile + ": not a PEM certificate: " + e.getMessage(), e);
        }
        if (chain.isEmpty()) throw new GeneralSecurityException(certFile + ": holds no certificate");
        PrivateKey key = privateKey(Files.readString(keyFile), keyFile.toString());
        if (!matches(chain.get(0).getPublicKey(), key)) {
            throw new GeneralSecurityException(keyFile + " is not the key of " + certFile + "'s certificate (" + key.getAlgorithm()
                    + " key, " + chain.get(0).getPublicKey().getAlgorithm() + " certificate)");
        }
        return new Identity(chain, key);
    }

    /**
     * The private key is the certificate's: what it signs, the certificate's public key verifies. A certificate and
     * key from two rotations (one file updated, not yet the other) do not make a pair.
     */
    private static boolean matches(PublicKey certified, PrivateKey key) throws GeneralSecurityException {
        if (!certified.getAlgorithm().equals(key.getAlgorithm())) return false;
        String algorithm = switch (key.getAlgorithm()) {
            case "RSA" -> "SHA256withRSA";
            case "EC" -> "SHA256withECDSA";
            case "EdDSA", "Ed25519" -> "Ed25519";
            default -> null;
        };
        if (algorithm == null) return true; // not checked: the handshake will tell
        byte[] probe = "upshift serving certificate".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Signature signer = Signature.getInstance(algorithm);
        signer.initSign(key);
        signer.update(probe);
        byte[] signature = signer.sign();
        Signature verifier = Signature.getInstance(algorithm);
        verifier.initVerify(certified);
        verifier.update(probe);
        return verifier.verify(signature);
    }

    static PrivateKey privateKey(String pem, String source) throws GeneralSecurityException {
        Matcher m = KEY.matcher(pem);
        if (!m.find()) throw new GeneralSecurityException(source + ": no PEM private key (BEGIN PRIVATE KEY, RSA PRIVATE KEY or EC PRIVATE KEY)");
        byte[] der = Base64.getMimeDecoder().decode(m.group(2));
        switch (m.group(1)) {
            case "" -> {
                for (String algorithm : List.of("RSA", "EC", "Ed25519", "RSASSA-PSS")) {
                    try {
                        return KeyFactory.getInstance(algorithm).generatePrivate(new PKCS8EncodedKeySpec(der));
                    } catch (GeneralSecurityException e) {
                        // try the next
                    }
                }
                throw new GeneralSecurityException(source + ": a PKCS#8 key of an algorithm other than RSA, EC or Ed25519");
            }
            case "RSA " -> {
                return KeyFactory.getInstance("RSA").generatePrivate(new PKCS8EncodedKeySpec(pkcs8(RSA_OID, new byte[] {0x05, 0x00}, der)));
            }
            case "EC " -> {
                return KeyFactory.getInstance("EC").generatePrivate(new PKCS8EncodedKeySpec(pkcs8(EC_OID, curve(der, source), der)));
            }
            case "ENCRYPTED " -> throw new GeneralSecurityException(source + ": an encrypted key; give it unencrypted (a Secret's tls.key is)");
            default -> throw new GeneralSecurityException(source + ": a " + m.group(1) + "PRIVATE KEY is not read; convert it to PKCS#8");
        }
    }

    /** PKCS#8's PrivateKeyInfo around a key in its algorithm's own encoding (RFC 5208). */
    private static byte[] pkcs8(byte[] algorithm, byte[] parameters, byte[] key) {
        return der(0x30, concat(new byte[] {0x02, 0x01, 0x00}, der(0x30, concat(algorithm, parameters)), der(0x04, key)));
    }

    /** The named curve of a SEC 1 ECPrivateKey: its {@code [0]} parameters (RFC 5915), which OpenSSL always writes. */
    private static byte[] curve(byte[] sec1, String source) throws GeneralSecurityException {
        Der outer = new Der(sec1, 0);
        if (outer.tag != 0x30) throw new GeneralSecurityException(source + ": not an EC private key");
        for (int at = outer.start; at < outer.end; ) {
            Der field = new Der(sec1, at);
            if (field.tag == 0xa0) return java.util.Arrays.copyOfRange(sec1, field.start, field.end);
            at = field.end;
        }
        throw new GeneralSecurityException(source + ": the EC private key names no curve");
    }

    /** One DER element at {@code at}: its tag and where its content starts and ends. */
    private static final class Der {
        final int tag, start, end;

        Der(byte[] b, int at) throws GeneralSecurityException {
            if (at + 2 > b.length) throw new GeneralSecurityException("truncated DER");
            tag = b[at] & 0xff;
            int length = b[at + 1] & 0xff, p = at + 2;
            if (length > 0x80) {
                int bytes = length & 0x7f;
                length = 0;
                for (int i = 0; i < bytes; i++) length = (length << 8) | (b[p++] & 0xff);
            }
            start = p;
            end = p + length;
            if (end > b.length) throw new GeneralSecurityException("truncated DER");
        }
    }

    private static byte[] der(int tag, byte[] content) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        out.write(tag);
        int n = content.length;
        if (n < 0x80) {
            out.write(n);
        } else {
            int bytes = n > 0xffffff ? 4 : n > 0xffff ? 3 : n > 0xff ? 2 : 1;
            out.write(0x80 | bytes);
            for (int i = bytes - 1; i >= 0; i--) out.write(n >>> (8 * i));
        }
        out.writeBytes(content);
        return out.toByteArray();
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) out.writeBytes(p);
        return out.toByteArray();
    }
}
