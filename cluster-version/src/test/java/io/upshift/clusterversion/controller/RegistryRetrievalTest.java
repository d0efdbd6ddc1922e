package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.ObjectMetaBuilder;
import io.fabric8.kubernetes.api.model.SecretBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.image.ImageStore;
import io.upshift.releases.image.RegistryAccess;
import io.upshift.releases.image.Releases;
import io.upshift.releases.signatures.HttpSignatureStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.testkit.HostileImages;
import io.upshift.testkit.LocalRegistry;
import io.upshift.testkit.RawImages;
import io.upshift.testkit.RawImages.Entry;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The controller retrieving releases from real registries with the cluster's pull secret and mirror
 * sets: each bad release ends as ReleaseAccepted=False naming what was wrong, with nothing of it
 * applied; a mirror that answers 404 gives way to the source.
 */
@Tag("e2e")
class RegistryRetrievalTest {

    @TempDir Path dir;

    private LocalRegistry open;
    private LocalRegistry locked;
    private ControllerHarness h;
    private final Releases releases =
            new Releases(
                    RegistryAccess.of(DockerCredentials.none(), false).withArchitecture("amd64"),
                    w -> {});

    @BeforeEach
    void start() throws Exception {
        open = LocalRegistry.start(Files.createDirectories(dir.resolve("open")), null, null);
        locked =
                LocalRegistry.start(
                        Files.createDirectories(dir.resolve("locked")), "admin", "s3cret");
        h = new ControllerHarness(Files.createDirectories(dir.resolve("payloads")));
    }

    @AfterEach
    void stop() {
        h.close();
        open.close();
        locked.close();
    }

    /**
     * Publishes the harness's release {@code version} (its metadata saying {@code payloadVersion})
     * to {@code registry}.
     */
    private String publish(
            LocalRegistry registry, String version, String payloadVersion, Releases with)
            throws Exception {
        h.payloads.release(version, payloadVersion, false);
        return with.publish(
                        dir.resolve("payloads").resolve(version),
                        payloadVersion,
                        null,
                        ImageRef.parse(registry.host() + "/ocp/release:" + version),
                        ImageStore.Progress.NONE)
                .pullspec();
    }

    private void install(String a) {
        h.startWith(
                ControllerHarness.options(a, dir.resolve("cache")),
                (c, egress) ->
                        new RegistryPayloads(
                                releases,
                                dir.resolve("cache"),
                                c,
                                new SignatureStores(HttpSignatureStore.defaultClient()),
                                null,
                                egress));
        await("4.1.0 installed").atMost(Duration.ofSeconds(60)).until(() -> h.completed("4.1.0"));
    }

    private void pullSecret(String host, String user, String password) {
        String config =
                "{\"auths\":{\""
                        + host
                        + "\":{\"auth\":\""
                        + Base64.getEncoder()
                                .encodeToString(
                                        (user + ":" + password).getBytes(StandardCharsets.UTF_8))
                        + "\"}}}";
        h.client
                .secrets()
                .inNamespace("openshift-config")
                .resource(
                        new SecretBuilder()
                                .withNewMetadata()
                                .withName("pull-secret")
                                .withNamespace("openshift-config")
                                .endMetadata()
                                .withType("kubernetes.io/dockerconfigjson")
                                .addToData(
                                        ".dockerconfigjson",
                                        Base64.getEncoder()
                                                .encodeToString(
                                                        config.getBytes(StandardCharsets.UTF_8)))
                                .build())
                .create();
    }

    /**
     * Asks for {@code image} (forced: these releases are unsigned, and the failure looked for comes
     * after the signature).
     */
    private ClusterOperatorStatusCondition refused(
            String version, String image, String reason, String detail) {
        h.requestUpdate(version, image, true);
        ClusterOperatorStatusCondition c =
                await(image + " refused")
                        .atMost(Duration.ofSeconds(60))
                        .until(
                                () -> h.condition("ReleaseAccepted"),
                                r ->
                                        r != null
                                                && "False".equals(r.getStatus())
                                                && reason.equals(r.getReason())
                                                && r.getMessage().contains(detail));
        assertThat(h.settingsData())
                .as("nothing of " + image + " applied")
                .containsEntry("version", "4.1.0");
        assertThat(h.clusterVersion().getStatus().getHistory())
                .extracting(UpdateHistory::getVersion)
                .containsExactly("4.1.0");
        return c;
    }

    @Test
    void badReleasesAreRefusedNamingWhatWasWrongAndNothingIsApplied() throws Exception {
        install(publish(open, "4.1.0", "4.1.0", releases));
        RawImages raw = new RawImages(open.host(), null, null);

        RawImages.Pushed noPayload =
                raw.image(
                        "ocp/release",
                        "nopayload",
                        "amd64",
                        List.of(
                                RawImages.layer(
                                        List.of(
                                                Entry.file(
                                                        "manifests/0000_00_a.yaml",
                                                        "kind: ConfigMap\n")))));
        ClusterOperatorStatusCondition c =
                refused(
                        "4.1.1",
                        open.host() + "/ocp/release@" + noPayload.digest(),
                        "LoadPayload",
                        "PayloadNotFound");
        assertThat(c.getReason()).isEqualTo("LoadPayload");
        assertThat(c.getMessage()).contains("PayloadNotFound").contains("release-manifests/");

        c =
                refused(
                        "4.1.2",
                        publish(open, "4.1.1", "4.1.1", releases),
                        "VerifyPayloadVersion",
                        "4.1.2");
        assertThat(c.getReason()).isEqualTo("VerifyPayloadVersion");
        assertThat(c.getMessage()).contains("4.1.1").contains("4.1.2");

        RawImages.Pushed s390 =
                raw.image(
                        "ocp/release",
                        "s390x",
                        "s390x",
                        List.of(RawImages.layer(List.of(Entry.file("etc/os-release", "x")))));
        RawImages.Pushed list = raw.index("ocp/release", "multi", Map.of("s390x", s390));
        c =
                refused(
                        "4.1.3",
                        open.host() + "/ocp/release@" + list.digest(),
                        "RetrievePayload",
                        "ArchitectureMissing");
        assertThat(c.getReason()).isEqualTo("RetrievePayload");
        assertThat(c.getMessage()).contains("ArchitectureMissing").contains("linux/amd64");

        pullSecret(locked.host(), "admin", "expired");
        String onLocked =
                publish(
                        locked,
                        "4.1.4",
                        "4.1.4",
                        new Releases(
                                RegistryAccess.of(
                                        DockerCredentials.parse(
                                                ("{\"auths\":{\""
                                                                + locked.host()
                                                                + "\":{\"auth\":\""
                                                                + Base64.getEncoder()
                                                                        .encodeToString(
                                                                                "admin:s3cret"
                                                                                        .getBytes(
                                                                                                StandardCharsets
                                                                                                        .UTF_8))
                                                                + "\"}}}")
                                                        .getBytes(StandardCharsets.UTF_8),
                                                "test"),
                                        false),
                                w -> {}));
        c = refused("4.1.4", onLocked, "RetrievePayload", "RegistryUnauthorized");
        assertThat(c.getReason()).isEqualTo("RetrievePayload");
        assertThat(c.getMessage())
                .contains("RegistryUnauthorized")
                .contains(locked.host())
                .contains("HTTP 401");
    }

    @Test
    void hostileImagesAreRefusedAndNothingOutsideTheCacheChanges() throws Exception {
        install(publish(open, "4.1.0", "4.1.0", releases));
        Path outside = Files.createDirectories(dir.resolve(HostileImages.OUTSIDE));
        Files.writeString(outside.resolve(HostileImages.DELETED), "keep\n");
        RawImages raw = new RawImages(open.host(), null, null);
        int patch = 5; // refused before their version is read: one version for the three
        for (HostileImages.Attack attack : HostileImages.attacks("4.1.5")) {
            String version = "4.1." + patch++;
            RawImages.Pushed image =
                    raw.image("ocp/release", "hostile-" + version, "amd64", attack.layers());
            ClusterOperatorStatusCondition c =
                    refused(
                            version,
                            open.host() + "/ocp/release@" + image.digest(),
                            "RetrievePayload",
                            "UnsafeLayerEntry");
            assertThat(c.getMessage()).as(attack.name()).contains(attack.entry());
        }
        assertThat(outside.resolve(HostileImages.DELETED)).hasContent("keep");
        assertThat(outside.resolve(HostileImages.CREATED)).doesNotExist();
        try (var left = Files.list(dir.resolve("cache"))) {
            assertThat(left.map(p -> p.getFileName().toString()))
                    .as("only 4.1.0's payload in the cache")
                    .hasSize(1);
        }
    }

    @Test
    void aMirrorThatAnswers404GivesWayToTheSource() throws Exception {
        install(publish(open, "4.1.0", "4.1.0", releases));
        String b = publish(open, "4.1.1", "4.1.1", releases);
        GenericKubernetesResource idms = new GenericKubernetesResource();
        idms.setApiVersion("config.openshift.io/v1");
        idms.setKind("ImageDigestMirrorSet");
        idms.setMetadata(new ObjectMetaBuilder().withName("mirrors").build());
        idms.setAdditionalProperty(
                "spec",
                Map.of(
                        "imageDigestMirrors",
                        List.of(
                                Map.of(
                                        "source",
                                        open.host() + "/ocp",
                                        "mirrors",
                                        List.of(
                                                locked.host() + "/nowhere",
                                                open.host() + "/nowhere")))));
        h.client.genericKubernetesResources(ClusterRegistryAccess.IDMS).resource(idms).create();
        h.requestUpdate("4.1.1", b, true);
        await("4.1.1 completed through the source")
                .atMost(Duration.ofSeconds(60))
                .until(() -> h.completed("4.1.1"));
        assertThat(h.condition("ReleaseAccepted").getStatus()).isEqualTo("True");
        assertThat(h.settingsData()).containsEntry("version", "4.1.1");
    }
}
