package io.upshift.releases.verify;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SignatureVerifierTest {

    static final String DIGEST = "sha256:" + "1".repeat(64);
    static final String OTHER = "sha256:" + "2".repeat(64);
    static final String PULLSPEC = "registry.example/upshift/release@" + DIGEST;

    static SigningKeys alice, bob;

    @TempDir Path dir;

    @BeforeAll
    static void keys() {
        alice =
                SigningKeys.generate(
                        "Alice <alice@example.com>", Instant.parse("2026-01-01T00:00:00Z"));
        bob = SigningKeys.generate("Bob <bob@example.com>", Instant.parse("2026-01-01T00:00:00Z"));
    }

    static Keyring keyring(String name, SigningKeys keys) throws ReleaseException {
        return Keyring.parse(name, keys.publicArmored().getBytes(StandardCharsets.US_ASCII));
    }

    static byte[] sign(SigningKeys keys, String digest) throws ReleaseException {
        return Signer.load(keys.secretArmored().getBytes(StandardCharsets.US_ASCII), new char[0])
                .sign(
                        new SimpleSignature(
                                        "registry.example/upshift/release",
                                        digest,
                                        "upshift test",
                                        1)
                                .toJson());
    }

    private ReleaseException rejection(List<Keyring> keyrings) {
        SignatureVerifier v = new SignatureVerifier(keyrings, List.of(new DirectoryStore(dir)));
        try {
            v.verify(PULLSPEC);
        } catch (ReleaseException e) {
            return e;
        }
        throw new AssertionError("verified, expected a rejection");
    }

    @Test
    void aSignatureByTheTrustedKeyVerifies() throws Exception {
        new DirectoryStore(dir).add(DIGEST, sign(alice, DIGEST));
        SignatureVerifier.Verified v =
                new SignatureVerifier(
                                List.of(keyring("alice", alice)), List.of(new DirectoryStore(dir)))
                        .verify(PULLSPEC);
        assertThat(v.digest()).isEqualTo(DIGEST);
        assertThat(v.signatureByKeyring()).containsOnlyKeys("alice");
        assertThat(Files.exists(dir.resolve("sha256=" + "1".repeat(64)).resolve("signature-1")))
                .isTrue();
    }

    @Test
    void everyKeyringMustHaveSigned() throws Exception {
        DirectoryStore store = new DirectoryStore(dir);
        store.add(DIGEST, sign(alice, DIGEST));
        ReleaseException e = rejection(List.of(keyring("alice", alice), keyring("bob", bob)));
        assertThat(e.getMessage())
                .contains("no valid signature by keyring bob (verified by alice)");
        store.add(DIGEST, sign(bob, DIGEST));
        assertThat(
                        new SignatureVerifier(
                                        List.of(keyring("alice", alice), keyring("bob", bob)),
                                        List.of(store))
                                .verify(PULLSPEC)
                                .signatureByKeyring())
                .containsOnlyKeys("alice", "bob");
    }

    @Test
    void anUnsignedReleaseIsRejected() throws Exception {
        ReleaseException e = rejection(List.of(keyring("alice", alice)));
        assertThat(e.reason()).isEqualTo(Reason.SIGNATURE_MISSING);
        assertThat(e.getMessage())
                .startsWith("no signature for " + DIGEST + " in the signature stores [file:");
    }

    @Test
    void aSignatureByAnUnknownKeyIsRejected() throws Exception {
        new DirectoryStore(dir).add(DIGEST, sign(bob, DIGEST));
        ReleaseException e = rejection(List.of(keyring("alice", alice)));
        assertThat(e.reason()).isEqualTo(Reason.SIGNATURE_UNKNOWN_KEY);
        assertThat(e.getMessage())
                .contains("signature-1: signed by key ")
                .contains("which none of the trusted keyrings (alice) holds");
    }

    @Test
    void aSignatureForAnotherDigestIsRejected() throws Exception {
        Path other = dir.resolve(SignatureStore.directoryName(DIGEST));
        Files.createDirectories(other);
        Files.write(other.resolve("signature-1"), sign(alice, OTHER));
        ReleaseException e = rejection(List.of(keyring("alice", alice)));
        assertThat(e.reason()).isEqualTo(Reason.SIGNATURE_DIGEST_MISMATCH);
        assertThat(e.getMessage()).contains("signs " + OTHER + ", not " + DIGEST);
    }

    @Test
    void truncatedAndForeignSignaturesAreMalformed() throws Exception {
        byte[] good = sign(alice, DIGEST);
        DirectoryStore store = new DirectoryStore(dir);
        store.add(DIGEST, Arrays.copyOf(good, good.length - 20));
        store.add(DIGEST, "{\"not\": \"openpgp\"}".getBytes(StandardCharsets.UTF_8));
        ReleaseException e = rejection(List.of(keyring("alice", alice)));
        assertThat(e.reason()).isEqualTo(Reason.SIGNATURE_MALFORMED);
        assertThat(e.getMessage()).contains("signature-1: ").contains("signature-2: ");
    }

    @Test
    void aTamperedSignatureDoesNotVerify() throws Exception {
        byte[] sig = sign(alice, DIGEST);
        String text =
                new String(sig, StandardCharsets.ISO_8859_1)
                        .replace("upshift test", "upshift TEST");
        new DirectoryStore(dir).add(DIGEST, text.getBytes(StandardCharsets.ISO_8859_1));
        assertThat(rejection(List.of(keyring("alice", alice))).reason())
                .isEqualTo(Reason.SIGNATURE_INVALID);
    }

    @Test
    void onlyDigestsCanBeVerified() {
        assertThatThrownBy(
                        () ->
                                new SignatureVerifier(List.of(keyring("alice", alice)), List.of())
                                        .verify("registry.example/release:4.14.1"))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.NOT_BY_DIGEST));
    }

    @Test
    void aFailingStoreIsReportedNotMistakenForNoSignature() throws Exception {
        SignatureStore broken =
                new SignatureStore() {
                    @Override
                    public String name() {
                        return "https://mirror.example/signatures";
                    }

                    @Override
                    public List<byte[]> signatures(String digest) throws IOException {
                        throw new IOException("HTTP 500");
                    }
                };
        assertThatThrownBy(
                        () ->
                                new SignatureVerifier(
                                                List.of(keyring("alice", alice)), List.of(broken))
                                        .verify(PULLSPEC))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> {
                            assertThat(e.reason()).isEqualTo(Reason.SIGNATURE_STORE_FAILED);
                            assertThat(e.getMessage())
                                    .contains("https://mirror.example/signatures: HTTP 500");
                        });
    }

    @Test
    void configFromConfigMapData() throws Exception {
        VerifierConfig c =
                VerifierConfig.fromData(
                        "openshift-config-managed/release-verification",
                        Map.of(
                                "verifier-public-key-alice",
                                alice.publicArmored(),
                                "store-local",
                                dir.toUri().toString(),
                                "other",
                                "x"));
        assertThat(c.keyrings()).extracting(Keyring::name).containsExactly("alice");
        new DirectoryStore(dir).add(DIGEST, sign(alice, DIGEST));
        assertThat(
                        c.verifier(List.of(), List.of(), VerifierConfig::openFile)
                                .verify(PULLSPEC)
                                .digest())
                .isEqualTo(DIGEST);
        assertThatThrownBy(() -> VerifierConfig.fromData("ns/cm", Map.of("store-x", "ftp://x")))
                .hasMessageContaining(
                        "ns/cm store-x: \"ftp://x\" is not an http, https or file URL");
        assertThatThrownBy(
                        () ->
                                VerifierConfig.fromData(
                                        "ns/cm", Map.of("verifier-public-key-x", "garbage")))
                .isInstanceOfSatisfying(
                        ReleaseException.class,
                        e -> assertThat(e.reason()).isEqualTo(Reason.KEY_INVALID));
        assertThatThrownBy(
                        () ->
                                VerifierConfig.fromData(
                                        "ns/cm",
                                        Map.of("verifier-public-key-x", alice.secretArmored())))
                .hasMessageContaining("not a public key block");
    }
}
