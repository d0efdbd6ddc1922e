package io.upshift.releases.verify;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Decides whether a release digest is trusted: every keyring must have signed it, with a signature
 * found in one of the stores (read in order) whose claim names exactly this digest. Pure apart from
 * reading the stores it is given.
 */
public final class SignatureVerifier {

    private static final Pattern DIGEST = Pattern.compile("(?:^|@)(sha256:[0-9a-f]{64})$");

    /**
     * Which signature vouched for the digest on behalf of each keyring, and those signatures (for
     * keeping in the cluster).
     */
    public record Verified(
            String digest, Map<String, String> signatureByKeyring, List<byte[]> signatures) {
        public Verified(String digest, Map<String, String> signatureByKeyring) {
            this(digest, signatureByKeyring, List.of());
        }
    }

    private final List<Keyring> keyrings;
    private final List<SignatureStore> stores;

    public SignatureVerifier(List<Keyring> keyrings, List<SignatureStore> stores) {
        this.keyrings = List.copyOf(keyrings);
        this.stores = List.copyOf(stores);
    }

    public List<Keyring> keyrings() {
        return keyrings;
    }

    public List<SignatureStore> stores() {
        return stores;
    }

    /** The {@code sha256:<hex>} of a pullspec by digest or of a bare digest. */
    public static String digestOf(String pullspecOrDigest) throws ReleaseException {
        Matcher m = DIGEST.matcher(pullspecOrDigest);
        if (!m.find()) {
            throw new ReleaseException(
                    Reason.NOT_BY_DIGEST,
                    pullspecOrDigest
                            + " is not by digest: only a release named by digest (…@sha256:<64"
                            + " hex>) can be verified");
        }
        return m.group(1);
    }

    /**
     * Verifies the release named by {@code pullspecOrDigest}.
     *
     * @throws ReleaseException with the most telling reason among the signatures tried, each one
     *     named in the message
     */
    public Verified verify(String pullspecOrDigest) throws ReleaseException {
        String digest = digestOf(pullspecOrDigest);
        if (keyrings.isEmpty()) {
            throw new ReleaseException(
                    Reason.VERIFIER_NOT_CONFIGURED,
                    "no trusted keyring is configured: nothing can be verified");
        }
        Map<String, String> satisfied = new LinkedHashMap<>();
        List<byte[]> signedWith = new ArrayList<>();
        List<ReleaseException> failures = new ArrayList<>();
        List<String> storeErrors = new ArrayList<>();
        int[] seen = {0};
        for (SignatureStore store : stores) {
            int[] n = {0};
            try {
                store.forEach(
                        digest,
                        signature -> {
                            seen[0]++;
                            String source = store.name() + " signature-" + ++n[0];
                            try {
                                String keyring = check(signature, digest, source);
                                if (satisfied.putIfAbsent(keyring, source) == null)
                                    signedWith.add(signature);
                            } catch (ReleaseException e) {
                                failures.add(e);
                            }
                            return satisfied.size() == keyrings.size();
                        });
            } catch (IOException e) {
                // what the store gave before failing counts: a good signature-1 stands
                storeErrors.add(store.name() + ": " + e.getMessage());
            }
            if (satisfied.size() == keyrings.size())
                return new Verified(digest, satisfied, signedWith);
        }
        throw failure(digest, seen[0], satisfied, failures, storeErrors);
    }

    /** Checks one signature; returns the keyring that signed it. */
    String check(byte[] signature, String digest, String source) throws ReleaseException {
        OpenPgp.Signed signed = OpenPgp.open(signature, keyrings, source);
        SimpleSignature claim = SimpleSignature.parse(signed.content(), source);
        if (!claim.digest().equals(digest)) {
            throw new ReleaseException(
                    Reason.SIGNATURE_DIGEST_MISMATCH,
                    source + ": signs " + claim.digest() + ", not " + digest);
        }
        return signed.keyring();
    }

    private ReleaseException failure(
            String digest,
            int seen,
            Map<String, String> satisfied,
            List<ReleaseException> failures,
            List<String> storeErrors) {
        String stores = this.stores.stream().map(SignatureStore::name).toList().toString();
        if (seen == 0) {
            return storeErrors.isEmpty()
                    ? new ReleaseException(
                            Reason.SIGNATURE_MISSING,
                            "no signature for " + digest + " in the signature stores " + stores)
                    : new ReleaseException(
                            Reason.SIGNATURE_STORE_FAILED,
                            "no signature for "
                                    + digest
                                    + " could be read: "
                                    + String.join("; ", storeErrors));
        }
        List<String> missing =
                keyrings.stream()
                        .map(Keyring::name)
                        .filter(k -> !satisfied.containsKey(k))
                        .toList();
        StringBuilder msg =
                new StringBuilder(
                        "unable to verify "
                                + digest
                                + ": no valid signature by keyring "
                                + String.join(", ", missing));
        if (!satisfied.isEmpty())
            msg.append(" (verified by ").append(String.join(", ", satisfied.keySet())).append(")");
        failures.forEach(
                f ->
                        msg.append("; ")
                                .append(f.reason().code())
                                .append(": ")
                                .append(f.getMessage()));
        storeErrors.forEach(e -> msg.append("; ").append(e));
        Reason reason =
                failures.stream()
                        .map(ReleaseException::reason)
                        .max(Comparator.comparingInt(SignatureVerifier::specificity))
                        .orElse(Reason.SIGNATURE_MISSING);
        return new ReleaseException(reason, msg.toString());
    }

    /** How far a signature got before failing: the furthest one explains best what is wrong. */
    private static int specificity(Reason r) {
        return switch (r) {
            case SIGNATURE_DIGEST_MISMATCH -> 4;
            case SIGNATURE_INVALID -> 3;
            case SIGNATURE_UNKNOWN_KEY -> 2;
            default -> 1;
        };
    }
}
