package io.upshift.releases.verify;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Instant;
import java.util.Date;
import java.util.Iterator;
import org.bouncycastle.bcpg.BCPGOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPLiteralData;
import org.bouncycastle.openpgp.PGPLiteralDataGenerator;
import org.bouncycastle.openpgp.PGPPrivateKey;
import org.bouncycastle.openpgp.PGPSecretKey;
import org.bouncycastle.openpgp.PGPSecretKeyRing;
import org.bouncycastle.openpgp.PGPSecretKeyRingCollection;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureGenerator;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.bouncycastle.openpgp.operator.bc.BcPBESecretKeyDecryptorBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;

/**
 * Signs content as {@code gpg --sign} does: a one-pass signed OpenPGP message holding the content.
 */
public final class Signer {

    private final PGPSecretKey secret;
    private final PGPPrivateKey key;

    private Signer(PGPSecretKey secret, PGPPrivateKey key) {
        this.secret = secret;
        this.key = key;
    }

    /**
     * Loads the first signing-capable secret key of an armored (or binary) secret keyring, e.g. the
     * output of {@code gpg --export-secret-keys --armor}; {@code passphrase} may be empty for an
     * unprotected key.
     */
    public static Signer load(byte[] secretKeyring, char[] passphrase) throws ReleaseException {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(secretKeyring))) {
            PGPSecretKeyRingCollection rings =
                    new PGPSecretKeyRingCollection(in, new BcKeyFingerprintCalculator());
            for (Iterator<PGPSecretKeyRing> r = rings.getKeyRings(); r.hasNext(); ) {
                for (Iterator<PGPSecretKey> k = r.next().getSecretKeys(); k.hasNext(); ) {
                    PGPSecretKey secret = k.next();
                    if (!secret.isSigningKey() || secret.isPrivateKeyEmpty()) continue;
                    try {
                        PGPPrivateKey key =
                                secret.extractPrivateKey(
                                        new BcPBESecretKeyDecryptorBuilder(
                                                        new BcPGPDigestCalculatorProvider())
                                                .build(passphrase));
                        return new Signer(secret, key);
                    } catch (PGPException e) {
                        throw new ReleaseException(
                                Reason.KEY_INVALID,
                                "cannot unlock secret key "
                                        + OpenPgp.keyId(secret.getKeyID())
                                        + ": wrong or missing passphrase ("
                                        + e.getMessage()
                                        + ")",
                                e);
                    }
                }
            }
            throw new ReleaseException(
                    Reason.KEY_INVALID, "the key file holds no secret key that can sign");
        } catch (IOException | PGPException e) {
            throw new ReleaseException(
                    Reason.KEY_INVALID,
                    "the key file is not an OpenPGP secret key: " + e.getMessage(),
                    e);
        }
    }

    /** The signing key's id, 16 hex digits. */
    public String keyId() {
        return OpenPgp.keyId(secret.getKeyID());
    }

    /**
     * The signature of release {@code repository@digest} in the atomic container signature format
     * ({@link SimpleSignature}), as {@code creator} made it at {@code at}.
     */
    public byte[] signRelease(String repository, String digest, String creator, Instant at) {
        return sign(new SimpleSignature(repository, digest, creator, at.getEpochSecond()).toJson());
    }

    /**
     * A binary OpenPGP message: one-pass signature, literal data {@code content}, signature
     * (SHA-256).
     */
    @SuppressWarnings("JavaUtilDate") // Bouncy Castle's literal data takes a Date
    public byte[] sign(byte[] content) {
        try {
            PGPSignatureGenerator generator =
                    new PGPSignatureGenerator(
                            new BcPGPContentSignerBuilder(
                                    secret.getPublicKey().getAlgorithm(), HashAlgorithmTags.SHA256),
                            secret.getPublicKey());
            generator.init(PGPSignature.BINARY_DOCUMENT, key);
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            try (BCPGOutputStream out = new BCPGOutputStream(bytes)) {
                generator.generateOnePassVersion(false).encode(out);
                PGPLiteralDataGenerator literal = new PGPLiteralDataGenerator();
                try (OutputStream data =
                        literal.open(out, PGPLiteralData.BINARY, "", content.length, new Date())) {
                    data.write(content);
                }
                generator.update(content);
                generator.generate().encode(out);
            }
            return bytes.toByteArray();
        } catch (IOException | PGPException e) {
            throw new IllegalStateException("signing failed: " + e.getMessage(), e);
        }
    }
}
