package io.upshift.releases.verify;

import io.upshift.releases.metadata.ReleaseException;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.time.Instant;
import java.util.Date;
import org.bouncycastle.bcpg.ArmoredOutputStream;
import org.bouncycastle.bcpg.HashAlgorithmTags;
import org.bouncycastle.bcpg.PublicKeyAlgorithmTags;
import org.bouncycastle.bcpg.sig.KeyFlags;
import org.bouncycastle.crypto.generators.Ed25519KeyPairGenerator;
import org.bouncycastle.crypto.params.Ed25519KeyGenerationParameters;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPKeyPair;
import org.bouncycastle.openpgp.PGPKeyRingGenerator;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureSubpacketGenerator;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentSignerBuilder;
import org.bouncycastle.openpgp.operator.bc.BcPGPDigestCalculatorProvider;
import org.bouncycastle.openpgp.operator.bc.BcPGPKeyPair;

/**
 * A new Ed25519 OpenPGP signing key (unprotected), armored: the secret key to sign with, the public
 * key to trust.
 */
public record SigningKeys(String secretArmored, String publicArmored) {

    /** A signer with the secret key (it has no passphrase). */
    public Signer signer() throws ReleaseException {
        return Signer.load(secretArmored.getBytes(StandardCharsets.US_ASCII), new char[0]);
    }

    public static SigningKeys generate(String userId, Instant created) {
        try {
            Ed25519KeyPairGenerator gen = new Ed25519KeyPairGenerator();
            gen.init(new Ed25519KeyGenerationParameters(new SecureRandom()));
            PGPKeyPair pair =
                    new BcPGPKeyPair(
                            PublicKeyAlgorithmTags.EDDSA_LEGACY,
                            gen.generateKeyPair(),
                            Date.from(created));
            PGPSignatureSubpacketGenerator flags = new PGPSignatureSubpacketGenerator();
            flags.setKeyFlags(false, KeyFlags.SIGN_DATA | KeyFlags.CERTIFY_OTHER);
            flags.setPreferredHashAlgorithms(false, new int[] {HashAlgorithmTags.SHA256});
            PGPKeyRingGenerator rings =
                    new PGPKeyRingGenerator(
                            PGPSignature.POSITIVE_CERTIFICATION,
                            pair,
                            userId,
                            new BcPGPDigestCalculatorProvider().get(HashAlgorithmTags.SHA1),
                            flags.generate(),
                            null,
                            new BcPGPContentSignerBuilder(
                                    PublicKeyAlgorithmTags.EDDSA_LEGACY, HashAlgorithmTags.SHA256),
                            null);
            return new SigningKeys(
                    armor(rings.generateSecretKeyRing().getEncoded()),
                    armor(rings.generatePublicKeyRing().getEncoded()));
        } catch (PGPException | IOException e) {
            throw new IllegalStateException("key generation failed: " + e.getMessage(), e);
        }
    }

    private static String armor(byte[] encoded) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ArmoredOutputStream out = ArmoredOutputStream.builder().clearHeaders().build(bytes)) {
            out.write(encoded);
        }
        return bytes.toString(StandardCharsets.US_ASCII);
    }
}
