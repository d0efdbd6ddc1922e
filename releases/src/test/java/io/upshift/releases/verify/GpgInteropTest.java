package io.upshift.releases.verify;

import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.manifest.ManifestReader;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Signatures made by the real gpg verify here, and ours pass {@code gpg --verify}. .ci/run installs
 * gnupg.
 */
@Tag("e2e")
class GpgInteropTest {

    static final String DIGEST = "sha256:" + "3".repeat(64);

    @TempDir Path dir;
    Path home;

    @BeforeEach
    void gpgHome() throws Exception {
        home = Files.createDirectories(dir.resolve("gnupg"));
        Files.setPosixFilePermissions(home, PosixFilePermissions.fromString("rwx------"));
        gpg("--quick-gen-key", "Release Signer <release@example.com>", "ed25519", "sign", "never");
    }

    @AfterEach
    void stopAgent() throws Exception {
        new ProcessBuilder("gpgconf", "--homedir", home.toString(), "--kill", "gpg-agent")
                .start()
                .waitFor(10, TimeUnit.SECONDS);
    }

    private String gpg(String... args) throws IOException, InterruptedException {
        List<String> cmd =
                new ArrayList<>(
                        List.of(
                                "gpg",
                                "--homedir",
                                home.toString(),
                                "--batch",
                                "--yes",
                                "--pinentry-mode",
                                "loopback",
                                "--passphrase",
                                ""));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as("gpg %s: %s", cmd, text).isZero();
        return text;
    }

    private byte[] document() {
        return new SimpleSignature("registry.example/release", DIGEST, "gpg interop", 1).toJson();
    }

    @Test
    void aSignatureMadeByGpgVerifies() throws Exception {
        Path doc = Files.write(dir.resolve("doc.json"), document());
        Path pub = dir.resolve("pub.asc");
        gpg("--armor", "--output", pub.toString(), "--export");
        Path sig =
                dir.resolve("store")
                        .resolve(SignatureStore.directoryName(DIGEST))
                        .resolve("signature-1");
        Files.createDirectories(sig.getParent());
        gpg("--output", sig.toString(), "--sign", doc.toString());

        Keyring keyring = Keyring.parse("gpg", Files.readAllBytes(pub));
        SignatureVerifier verifier =
                new SignatureVerifier(
                        List.of(keyring), List.of(new DirectoryStore(dir.resolve("store"))));
        assertThat(verifier.verify("registry.example/release@" + DIGEST).signatureByKeyring())
                .containsOnlyKeys("gpg");

        // the same document signed for another digest is refused
        SignatureVerifier other =
                new SignatureVerifier(
                        List.of(keyring), List.of(new DirectoryStore(dir.resolve("store"))));
        Path sig2 =
                dir.resolve("store")
                        .resolve(SignatureStore.directoryName("sha256:" + "4".repeat(64)))
                        .resolve("signature-1");
        Files.createDirectories(sig2.getParent());
        Files.copy(sig, sig2);
        try {
            other.verify("sha256:" + "4".repeat(64));
            throw new AssertionError("verified a signature of another digest");
        } catch (ReleaseException e) {
            assertThat(e.reason()).isEqualTo(Reason.SIGNATURE_DIGEST_MISMATCH);
        }
    }

    @Test
    void ourSignaturePassesGpgVerify() throws Exception {
        SigningKeys keys =
                SigningKeys.generate(
                        "Upshift <upshift@example.com>", Instant.parse("2026-01-01T00:00:00Z"));
        Path pub = Files.writeString(dir.resolve("upshift.asc"), keys.publicArmored());
        gpg("--import", pub.toString());
        Path sig =
                Files.write(
                        dir.resolve("signature-1"),
                        Signer.load(
                                        keys.secretArmored().getBytes(StandardCharsets.US_ASCII),
                                        new char[0])
                                .sign(document()));
        Path out = dir.resolve("out.json");
        String report = gpg("--output", out.toString(), "--verify", sig.toString());
        assertThat(report).contains("Good signature from \"Upshift <upshift@example.com>\"");
        // gpg --verify writes nothing; decrypt extracts the signed content, which is our document
        // byte for byte
        gpg("--output", out.toString(), "--decrypt", sig.toString());
        assertThat(Files.readAllBytes(out)).isEqualTo(document());
    }

    @Test
    void aGpgSecretKeySignsForUs() throws Exception {
        Path secret = dir.resolve("secret.asc");
        gpg("--armor", "--output", secret.toString(), "--export-secret-keys");
        Signer signer = Signer.load(Files.readAllBytes(secret), new char[0]);
        Path sig = Files.write(dir.resolve("signature-1"), signer.sign(document()));
        assertThat(gpg("--verify", sig.toString()))
                .contains("Good signature from \"Release Signer <release@example.com>\"");
    }

    /** Conformance: the reference's verification ConfigMap reads as a keyring and a store. */
    @Test
    void referenceVerificationConfigMap() throws Exception {
        Path fixtures =
                Path.of(
                        System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                        "cvo-payloads",
                        "manifests");
        Assumptions.assumeTrue(Files.isDirectory(fixtures), "shared fixtures not present");
        VerifierConfig c =
                VerifierConfig.fromPayload(
                        ManifestReader.read(
                                "loads-valid.yaml",
                                Files.readString(fixtures.resolve("loads-valid.yaml"))));
        assertThat(c.keyrings()).extracting(Keyring::name).containsExactly("redhat");
        assertThat(c.keyrings().get(0).fingerprints())
                .containsExactly("567E347AD0044ADE55BA8A5F199E2F91FD431D51");
        assertThat(c.stores()).extracting(URI::getScheme).containsExactly("file");
        try {
            VerifierConfig.fromPayload(
                    ManifestReader.read(
                            "requires-data.yaml",
                            Files.readString(fixtures.resolve("requires-data.yaml"))));
            throw new AssertionError("a ConfigMap without keys was accepted");
        } catch (ReleaseException e) {
            assertThat(e.reason()).isEqualTo(Reason.VERIFIER_NOT_CONFIGURED);
            assertThat(e.getMessage())
                    .isEqualTo(
                            "openshift-config-managed/release-verification names no public keys"
                                    + " (verifier-public-key-*)");
        }
    }
}
