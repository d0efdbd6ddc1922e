package io.upshift.releases.signatures;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.verify.Keyring;
import io.upshift.releases.verify.SignatureStore;
import io.upshift.releases.verify.SignatureVerifier;
import io.upshift.releases.verify.Signer;
import io.upshift.releases.verify.SigningKeys;
import io.upshift.releases.verify.SimpleSignature;
import io.upshift.testkit.HostileServer;
import io.upshift.testkit.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Signature stores that answer as an attacker would (a gibibyte, a byte a second, slowly forever)
 * fail at their bounds with the store, the host and the limit named; stores that ClusterVersion
 * configures are honoured only as upstream honours them.
 */
class HostileSignatureStoreTest {

    static final String HEX = "5".repeat(64);
    static final String DIGEST = "sha256:" + HEX;
    static final String PULLSPEC = "registry.example/upshift/release@" + DIGEST;
    static final String SIG1 = "/sha256=" + HEX + "/signature-1";

    /** Short bounds, so that the tests reach them in seconds. */
    static final SignatureStores.Limits QUICK =
            new SignatureStores.Limits(
                    64 << 10, Duration.ofSeconds(2), Duration.ofSeconds(3), Duration.ofSeconds(5));

    static SigningKeys keys;
    HostileServer server;

    @BeforeAll
    static void generate() {
        keys = SigningKeys.generate("Test <test@example.com>", Instant.now());
    }

    @BeforeEach
    void start() throws IOException {
        server = HostileServer.start();
    }

    @AfterEach
    void stop() throws IOException {
        server.close();
    }

    static byte[] signature() throws ReleaseException {
        return Signer.load(keys.secretArmored().getBytes(StandardCharsets.US_ASCII), new char[0])
                .sign(
                        new SimpleSignature("registry.example/upshift/release", DIGEST, "test", 1)
                                .toJson());
    }

    static Keyring keyring() throws ReleaseException {
        return Keyring.parse("test", keys.publicArmored().getBytes(StandardCharsets.US_ASCII));
    }

    SignatureStores stores(SignatureStores.Limits limits) {
        return new SignatureStores(HttpSignatureStore.defaultClient(), limits);
    }

    /** Verifies with {@code stores} on a thread of its own: the failure, once it failed. */
    static ReleaseException refusal(List<SignatureStore> stores) throws Exception {
        CompletableFuture<ReleaseException> outcome =
                CompletableFuture.supplyAsync(
                        () -> {
                            try {
                                new SignatureVerifier(List.of(keyring()), stores).verify(PULLSPEC);
                                return null;
                            } catch (ReleaseException e) {
                                return e;
                            }
                        });
        // far above the bounds tested: reaching it means they did not hold
        await().atMost(Duration.ofSeconds(30)).until(outcome::isDone);
        assertThat(outcome.get()).as("verification refused").isNotNull();
        return outcome.get();
    }

    @Test
    void aStoreAnsweringAGibibyteFailsAtTheSignatureLimit() throws Exception {
        server.answer("/huge/", new HostileServer.Huge(1L << 30, false));
        URI store = server.url("/huge");
        ReleaseException e = refusal(List.of(stores(QUICK).open(store)));
        assertThat(e.getMessage())
                .contains(
                        store
                                + "/: 127.0.0.1: the answer to GET "
                                + store
                                + SIG1
                                + " is larger than 65536 bytes (64 KiB), its limit");
        await("the store sees the client hang up")
                .atMost(Duration.ofSeconds(20))
                .until(() -> server.openConnections() == 0);
        assertThat(server.bodyBytesSent()).isLessThan(32L << 20);
    }

    @Test
    void aStoreSendingAByteASecondFailsAtTheAnswerLimit() throws Exception {
        server.answer("/slow/", new HostileServer.Trickle(Duration.ofSeconds(1), false));
        URI store = server.url("/slow");
        ReleaseException e = refusal(List.of(stores(QUICK).open(store)));
        assertThat(e.getMessage())
                .contains(
                        "127.0.0.1: no complete answer to GET "
                                + store
                                + SIG1
                                + " within 2s, the limit for one answer");
    }

    @Test
    void aStoreAnsweringEachSignatureSlowlyEndsAtItsOwnLimit() throws Exception {
        server.answer(
                "/patient/",
                new HostileServer.Delayed(
                        Duration.ofMillis(700),
                        new HostileServer.Plain(
                                200, "text/plain", "not a signature".getBytes(UTF_8))));
        URI store = server.url("/patient");
        ReleaseException e = refusal(List.of(stores(QUICK).open(store)));
        assertThat(e.getMessage())
                .contains("within 3s, the limit for reading signature store " + store + "/");
    }

    @Test
    void storesReadForOneVerificationEndTogetherAtItsLimit() throws Exception {
        server.answer("/slow/", new HostileServer.Trickle(Duration.ofMillis(500), false));
        SignatureStores.Limits limits =
                new SignatureStores.Limits(
                        64 << 10,
                        Duration.ofMinutes(10),
                        Duration.ofMinutes(10),
                        Duration.ofSeconds(2));
        SignatureStores one = stores(limits).forOneVerification();
        ReleaseException e =
                refusal(List.of(one.open(server.url("/slow/a")), one.open(server.url("/slow/b"))));
        assertThat(e.getMessage())
                .contains(
                        server.url("/slow/a")
                                + SIG1
                                + " within 2s, the limit for verifying a release signature")
                .contains(
                        server.url("/slow/b")
                                + "/: GET "
                                + server.url("/slow/b")
                                + SIG1
                                + " not read: past 2s, the limit for verifying a release"
                                + " signature");
    }

    @Test
    void aGoodFirstSignatureStandsAndTheNextIsNotAskedFor() throws Exception {
        server.answer("/store" + SIG1, new HostileServer.Plain(200, "text/plain", signature()));
        server.answer("/store/", new HostileServer.Trickle(Duration.ofSeconds(1), false));
        SignatureVerifier.Verified v =
                new SignatureVerifier(
                                List.of(keyring()),
                                List.of(stores(QUICK).open(server.url("/store"))))
                        .verify(PULLSPEC);
        assertThat(v.signatureByKeyring()).containsOnlyKeys("test");
        assertThat(server.requests()).containsExactly("GET /store" + SIG1 + " HTTP/1.1");
    }

    @Test
    void configuredStoresAreReadOverHttpAndHttpsOnly() throws Exception {
        server.answer("/sigs" + SIG1, new HostileServer.Plain(200, "text/plain", signature()));
        List<ConfiguredStore> configured =
                List.of(
                        new ConfiguredStore("file:///etc/signatures", ""),
                        new ConfiguredStore("ftp://sigs.example.com/x", ""),
                        new ConfiguredStore("not a url", ""),
                        new ConfiguredStore("/sigs", ""),
                        new ConfiguredStore(server.url("/sigs").toString(), ""));
        List<SignatureStore> opened =
                stores(QUICK)
                        .openConfigured(
                                configured,
                                name -> {
                                    throw new AssertionError("no ca is named");
                                });
        assertThat(opened).extracting(SignatureStore::name).hasSize(5);
        assertThat(new SignatureVerifier(List.of(keyring()), opened).verify(PULLSPEC).digest())
                .isEqualTo(DIGEST);
        ReleaseException e = refusal(opened.subList(0, 4));
        assertThat(e.getMessage())
                .contains(
                        "spec.signatureStores[0] (file:///etc/signatures): not honoured: the"
                                + " store's scheme file is unrecognized: only https and http stores"
                                + " are read")
                .contains(
                        "spec.signatureStores[1] (ftp://sigs.example.com/x): not honoured: the"
                                + " store's scheme ftp is unrecognized")
                .contains(
                        "spec.signatureStores[2] (not a url): not honoured: not a valid absolute"
                                + " URL")
                .contains(
                        "spec.signatureStores[3] (/sigs): not honoured: not a valid absolute URL");
    }

    @Test
    void onlyThirtyTwoConfiguredStoresAreRead() throws Exception {
        List<ConfiguredStore> configured = new java.util.ArrayList<>();
        for (int i = 0; i < 33; i++)
            configured.add(new ConfiguredStore(server.url("/s" + i).toString(), ""));
        List<SignatureStore> opened =
                stores(QUICK).openConfigured(configured, n -> Optional.empty());
        assertThat(opened.get(32).name())
                .isEqualTo("spec.signatureStores[32] (" + server.url("/s32") + ")");
        ReleaseException e = refusal(List.of(opened.get(32)));
        assertThat(e.getMessage()).contains("not honoured: at most 32 signature stores are read");
    }

    @Test
    void aConfiguredStoresCaIsItsTrustAnchor() throws Exception {
        TestCertificates ca = TestCertificates.authority("signature-store-ca");
        HttpsServer https = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        https.setHttpsConfigurator(new HttpsConfigurator(ca.server("127.0.0.1")));
        byte[] good = signature();
        https.createContext(
                "/sigs/",
                x -> {
                    boolean first = x.getRequestURI().getPath().endsWith("/signature-1");
                    x.sendResponseHeaders(first ? 200 : 404, first ? good.length : -1);
                    if (first) x.getResponseBody().write(good);
                    x.close();
                });
        https.start();
        try {
            String url = "https://127.0.0.1:" + https.getAddress().getPort() + "/sigs";
            SignatureStores.CaBundles cas =
                    name ->
                            switch (name) {
                                case "store-ca" -> Optional.of(ca.pem());
                                case "not-pem" -> Optional.of("just text");
                                default ->
                                        throw new IOException(
                                                "ConfigMap openshift-config/"
                                                        + name
                                                        + " (its ca) does not exist");
                            };
            List<SignatureStore> trusted =
                    stores(QUICK)
                            .openConfigured(List.of(new ConfiguredStore(url, "store-ca")), cas);
            assertThat(new SignatureVerifier(List.of(keyring()), trusted).verify(PULLSPEC).digest())
                    .isEqualTo(DIGEST);

            ReleaseException untrusted =
                    refusal(
                            stores(QUICK)
                                    .openConfigured(List.of(new ConfiguredStore(url, "")), cas));
            assertThat(untrusted.getMessage())
                    .contains(url + "/: GET " + url + SIG1)
                    .containsIgnoringCase("certification path");

            ReleaseException missing =
                    refusal(
                            stores(QUICK)
                                    .openConfigured(
                                            List.of(new ConfiguredStore(url, "absent")), cas));
            assertThat(missing.getMessage())
                    .contains(
                            "spec.signatureStores[0] ("
                                    + url
                                    + "): not honoured: ConfigMap openshift-config/absent (its ca)"
                                    + " does not exist");

            ReleaseException notPem =
                    refusal(
                            stores(QUICK)
                                    .openConfigured(
                                            List.of(new ConfiguredStore(url, "not-pem")), cas));
            assertThat(notPem.getMessage())
                    .contains(
                            "not honoured: ConfigMap openshift-config/not-pem (its ca) holds no PEM"
                                    + " certificate under ca.crt");
        } finally {
            https.stop(0);
        }
    }
}
