package io.upshift.releases.verify;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import org.bouncycastle.bcpg.ArmoredInputStream;
import org.bouncycastle.openpgp.PGPException;
import org.bouncycastle.openpgp.PGPPublicKey;
import org.bouncycastle.openpgp.PGPPublicKeyRing;
import org.bouncycastle.openpgp.PGPPublicKeyRingCollection;
import org.bouncycastle.openpgp.PGPUtil;
import org.bouncycastle.openpgp.operator.bc.BcKeyFingerprintCalculator;
import org.bouncycastle.util.encoders.Hex;

/**
 * A named set of OpenPGP public keys (an armored keyring); a signature by any key in it counts as
 * the keyring's.
 */
public record Keyring(String name, PGPPublicKeyRingCollection keys) {

    /** Parses armored (or binary) public keys; {@code name} identifies the keyring in messages. */
    public static Keyring parse(String name, byte[] data) throws ReleaseException {
        try (InputStream in = PGPUtil.getDecoderStream(new ByteArrayInputStream(data))) {
            if (in instanceof ArmoredInputStream armored
                    && armored.getArmorHeaderLine() != null
                    && !armored.getArmorHeaderLine().contains("PUBLIC KEY")) {
                throw new ReleaseException(
                        Reason.KEY_INVALID,
                        "keyring "
                                + name
                                + " is a "
                                + armored.getArmorHeaderLine().replace("-", "").trim()
                                + ", not a public key block");
            }
            PGPPublicKeyRingCollection keys =
                    new PGPPublicKeyRingCollection(in, new BcKeyFingerprintCalculator());
            if (keys.size() == 0)
                throw new ReleaseException(
                        Reason.KEY_INVALID, "keyring " + name + " holds no public key");
            return new Keyring(name, keys);
        } catch (IOException | PGPException e) {
            throw new ReleaseException(
                    Reason.KEY_INVALID,
                    "keyring " + name + " is not an OpenPGP public keyring: " + e.getMessage(),
                    e);
        }
    }

    /** The key with {@code keyId} (primary or subkey), or null. */
    public PGPPublicKey key(long keyId) {
        return keys.getPublicKey(keyId);
    }

    /** Upper-case hex fingerprints of the primary keys, for messages. */
    public List<String> fingerprints() {
        List<String> out = new ArrayList<>();
        for (Iterator<PGPPublicKeyRing> it = keys.getKeyRings(); it.hasNext(); ) {
            out.add(
                    Hex.toHexString(it.next().getPublicKey().getFingerprint())
                            .toUpperCase(Locale.ROOT));
        }
        return out;
    }
}
