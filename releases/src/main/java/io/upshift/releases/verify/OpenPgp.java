package io.upshift.releases.verify;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;
import org.bouncycastle.openpgp.PGPCompressedData;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPLiteralData;
import org.bouncycastle.openpgp.PGPOnePassSignature;
import org.bouncycastle.openpgp.PGPOnePassSignatureList;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPSignature;
import org.bouncycastle.openpgp.PGPSignatureList;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.bc.BcPGPObjectFactory;
import org.bouncycastle.openpgp.operator.bc.BcPGPContentVerifierBuilderProvider;

/**
 * Opens a signed OpenPGP message ({@code gpg --sign} output, binary or armored) and checks it
 * against keyrings.
 */
final class OpenPgp {

    /** The signed content and which keyring's key signed it. */
    record Signed(byte[] content, String keyring) {}

    private OpenPgp() {}

    /**
     * Verifies {@code message} against {@code keyrings}; {@code source} names it in errors.
     *
     * @throws ReleaseException SIGNATURE_MALFORMED (not a signed OpenPGP message, truncated),
     *     SIGNATURE_UNKNOWN_KEY (signed by a key none of the keyrings holds), SIGNATURE_INVALID
     *     (the signature does not match the content)
     */
    static Signed open(byte[] message, List<Keyring> keyrings, String source)
            throws ReleaseException {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(message))) {
            BcPGPObjectFactory factory = new BcPGPObjectFactory(in);
            Object next = factory.nextObject();
            if (next instanceof PGPCompressedData compressed) {
                factory = new BcPGPObjectFactory(compressed.getDataStream());
                next = factory.nextObject();
            }
            if (!(next instanceof PGPOnePassSignatureList onePass) || onePass.isEmpty()) {
                throw malformed(source, "not a signed OpenPGP message");
            }
            PGPOnePassSignature ops = onePass.get(0);
            if (!(factory.nextObject() instanceof PGPLiteralData literal)) {
                throw malformed(source, "the signed message has no content");
            }
            byte[] content = literal.getInputStream().readAllBytes();
            if (!(factory.nextObject() instanceof PGPSignatureList signatures)
                    || signatures.isEmpty()) {
                throw malformed(
                        source, "the message is truncated: its signature packet is missing");
            }
            PGPSignature signature = signatures.get(0);
            for (Keyring keyring : keyrings) {
                PGPPublicKey key = keyring.key(ops.getKeyID());
                if (key == null) continue;
                ops.init(new BcPGPContentVerifierBuilderProvider(), key);
                ops.update(content);
                if (!ops.verify(signature)) {
                    throw new ReleaseException(
                            Reason.SIGNATURE_INVALID,
                            source
                                    + ": the signature by key "
                                    + keyId(ops.getKeyID())
                                    + " (keyring "
                                    + keyring.name()
                                    + ") does not match the signed content");
                }
                return new Signed(content, keyring.name());
            }
            throw new ReleaseException(
                    Reason.SIGNATURE_UNKNOWN_KEY,
                    source
                            + ": signed by key "
                            + keyId(ops.getKeyID())
                            + ", which none of the trusted keyrings ("
                            + String.join(", ", keyrings.stream().map(Keyring::name).toList())
                            + ") holds");
        } catch (IOException | PGPException | RuntimeException e) {
            throw malformed(
                    source,
                    "not a valid OpenPGP message ("
                            + e.getClass().getSimpleName()
                            + (e.getMessage() == null ? "" : ": " + e.getMessage())
                            + ")");
        }
    }

    static String keyId(long id) {
        return String.format("%016X", id);
    }

    private static ReleaseException malformed(String source, String why) {
        return new ReleaseException(Reason.SIGNATURE_MALFORMED, source + ": " + why);
    }
}
