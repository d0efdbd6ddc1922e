package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.ConfigMapBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ConfigMapNameReference;
import io.fabric8.openshift.api.model.config.v1.SignatureStore;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.RegistryAccess;
import io.upshift.releases.image.Releases;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.signatures.ConfiguredStore;
import io.upshift.releases.signatures.HttpSignatureStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.releases.verify.SignatureVerifier;
import io.upshift.releases.verify.SigningKeys;
import io.upshift.testkit.HostileServer;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller verifying a target with a signature store that answers as an attacker would: a
 * gibibyte, a byte a second, or more slowly than acceptance may take. Each ends within its bound in
 * ReleaseAccepted=False naming the store (or the step) and the limit, with nothing of the target
 * applied and the store read no further than its limit; badly configured {@code
 * spec.signatureStores} are named the same way.
 */
@Tag("e2e")
class HostileSignatureStoreAcceptanceTest {

    /** Bounds short enough for a test to reach. */
    static final SignatureStores.Limits QUICK =
            new SignatureStores.Limits(
                    64 << 10, Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(6));

    /** Bounds the acceptance deadline reaches first. */
    static final SignatureStores.Limits PATIENT =
            new SignatureStores.Limits(
                    64 << 10,
                    Duration.ofMinutes(10),
                    Duration.ofMinutes(10),
                    Duration.ofMinutes(10));

    @TempDir Path dir;
    HostileServer store;
    ControllerHarness h;
    String running;
    String target;

    @BeforeEach
    void start() throws Exception {
        store = HostileServer.start();
        h = new ControllerHarness(dir.resolve("releases"));
        String keyring =
                SigningKeys.generate("Test <test@example.com>", Instant.now()).publicArmored();
        // the running release's trust: this keyring, this store (the ConfigMap is excluded from
        // the cluster, as it names no profile, but verification reads it all the same)
        String trust =
                "apiVersion: v1\n"
                        + "kind: ConfigMap\n"
                        + "metadata:\n"
                        + "  name: release-verification\n"
                        + "  namespace: openshift-config-managed\n"
                        + "  annotations:\n"
                        + "    release.openshift.io/verification-config-map: \"\"\n"
                        + "data:\n"
                        + "  verifier-public-key-test: |\n"
                        + keyring.lines().map(l -> "    " + l + "\n").reduce("", String::concat)
                        + "  store-hostile: "
                        + store.url("/sigs")
                        + "\n";
        running = h.payloads.release("4.1.0", "4.1.0", true, trust);
        target = h.payloads.release("4.1.1", "4.1.1", false);
    }

    @AfterEach
    void stop() throws Exception {
        h.close();
        store.close();
    }

    /**
     * Releases from the harness's fake payloads, verified as the controller verifies them in a
     * cluster ({@link RegistryPayloads}: the cluster's ConfigMaps, then the stores).
     */
    void install(SignatureStores.Limits limits, Duration acceptance) {
        h.startWith(
                ControllerHarness.options(running, dir.resolve("cache"))
                        .withAcceptanceTimeout(acceptance),
                (client, egress) -> {
                    RegistryPayloads verifying =
                            new RegistryPayloads(
                                    new Releases(
                                            RegistryAccess.of(DockerCredentials.none(), false),
                                            w -> {}),
                                    dir.resolve("cache"),
                                    client,
                                    new SignatureStores(HttpSignatureStore.defaultClient(), limits),
                                    null,
                                    egress);
                    return new PayloadSource() {
                        @Override
                        public String pin(String pullspec) throws ReleaseException {
                            return h.payloads.pin(pullspec);
                        }

                        @Override
                        public Payload load(String pullspec, LoadRules rules)
                                throws ReleaseException {
                            return h.payloads.load(pullspec, rules);
                        }

                        @Override
                        public SignatureVerifier.Verified verify(
                                String pullspec, Payload trusted, List<ConfiguredStore> specStores)
                                throws ReleaseException {
                            return verifying.verify(pullspec, trusted, specStores);
                        }
                    };
                });
        await("4.1.0 installed").atMost(Duration.ofSeconds(30)).until(() -> h.completed("4.1.0"));
    }

    /** Asks for the target, unforced; ReleaseAccepted=False once it says {@code detail}. */
    ClusterOperatorStatusCondition refused(String detail) {
        h.requestUpdate("4.1.1", target, false);
        ClusterOperatorStatusCondition c =
                await("4.1.1 refused")
                        // far above every bound tested: reaching it means one did not hold
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () -> h.condition("ReleaseAccepted"),
                                r ->
                                        r != null
                                                && "False".equals(r.getStatus())
                                                && r.getMessage().contains(detail));
        assertThat(c.getReason()).isEqualTo("RetrievePayload");
        assertThat(h.settingsData())
                .as("nothing of 4.1.1 applied")
                .containsEntry("version", "4.1.0");
        assertThat(h.clusterVersion().getStatus().getHistory())
                .extracting(UpdateHistory::getVersion)
                .containsExactly("4.1.0");
        return c;
    }

    @Test
    void aStoreAnsweringAGibibyteIsRefusedAtItsLimitAndReadNoFurther() {
        store.answer("/sigs/", new HostileServer.Huge(1L << 30, false));
        install(SignatureStores.Limits.DEFAULT, null);
        ClusterOperatorStatusCondition c =
                refused("is larger than 65536 bytes (64 KiB), its limit");
        assertThat(c.getMessage())
                .contains("The update cannot be verified")
                .contains(
                        store.url("/sigs")
                                + "/: 127.0.0.1: the answer to GET "
                                + store.url("/sigs"));
        await("the store sees the controller hang up")
                .atMost(Duration.ofSeconds(20))
                .until(() -> store.openConnections() == 0);
        // each attempt read at most its limit and what socket buffers held: never the gibibyte
        assertThat(store.bodyBytesSent()).isLessThan(64L << 20);
    }

    @Test
    void aStoreSendingAByteASecondIsRefusedAtTheAnswersLimit() {
        store.answer("/sigs/", new HostileServer.Trickle(Duration.ofSeconds(1), false));
        install(QUICK, null);
        ClusterOperatorStatusCondition c = refused("within 2s, the limit for one answer");
        assertThat(c.getMessage())
                .contains(
                        "127.0.0.1: no complete answer to GET " + store.url("/sigs") + "/sha256=");
    }

    @Test
    void acceptanceThatOutlastsItsDeadlineIsRefusedNamingTheStep() {
        store.answer("/sigs/", new HostileServer.Trickle(Duration.ofSeconds(1), false));
        install(PATIENT, Duration.ofSeconds(3));
        ClusterOperatorStatusCondition c =
                refused("did not finish within 3s, the limit for accepting a release");
        assertThat(c.getMessage())
                .startsWith(
                        "Accepting the release version=\"4.1.1\" image=\""
                                + target
                                + "\" did not finish within 3s")
                .endsWith(
                        "still verifying its signature (signature stores ["
                                + store.url("/sigs")
                                + "])");
    }

    @Test
    void configuredStoresThatCannotBeHonouredAreNamed() {
        install(QUICK, null);
        caConfigMap("no-key", Map.of("other.crt", "x"));
        caConfigMap("not-pem", Map.of("ca.crt", "not a certificate"));
        h.editSpec(
                spec ->
                        spec.setSignatureStores(
                                List.of(
                                        new SignatureStore(null, "file:///etc/signatures"),
                                        new SignatureStore(
                                                new ConfigMapNameReference("absent"),
                                                store.url("/sigs").toString()),
                                        new SignatureStore(
                                                new ConfigMapNameReference("no-key"),
                                                "https://sigs.example.com/a"),
                                        new SignatureStore(
                                                new ConfigMapNameReference("not-pem"),
                                                "https://sigs.example.com/b"))));
        ClusterOperatorStatusCondition c = refused("spec.signatureStores[3]");
        assertThat(c.getMessage())
                .contains(
                        "spec.signatureStores[0] (file:///etc/signatures): not honoured: the"
                                + " store's scheme file is unrecognized: only https and http"
                                + " stores are read")
                .contains(
                        "spec.signatureStores[1] ("
                                + store.url("/sigs")
                                + "): not honoured: ConfigMap openshift-config/absent (its ca)"
                                + " does not exist")
                .contains(
                        "spec.signatureStores[2] (https://sigs.example.com/a): not honoured:"
                                + " ConfigMap openshift-config/no-key (its ca) has no key ca.crt")
                .contains(
                        "spec.signatureStores[3] (https://sigs.example.com/b): not honoured:"
                                + " ConfigMap openshift-config/not-pem (its ca) holds no PEM"
                                + " certificate under ca.crt");
        assertThat(store.requests()).as("no store was read").isEmpty();
    }

    /** A ConfigMap in openshift-config, as an administrator makes one for a store's ca. */
    void caConfigMap(String name, Map<String, String> data) {
        h.client
                .configMaps()
                .inNamespace("openshift-config")
                .resource(
                        new ConfigMapBuilder()
                                .withNewMetadata()
                                .withName(name)
                                .withNamespace("openshift-config")
                                .endMetadata()
                                .withData(data)
                                .build())
                .create();
    }
}
