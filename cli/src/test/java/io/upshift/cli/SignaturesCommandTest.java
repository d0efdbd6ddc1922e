package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.upshift.api.json.Mappers;
import io.upshift.releases.signatures.ConfigMapSignatureStore;
import io.upshift.releases.verify.Keyring;
import io.upshift.releases.verify.SignatureVerifier;
import io.upshift.testkit.EmbeddedApiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift release signatures}: a store's signatures as the ConfigMap the controller reads,
 * printed or applied.
 */
@Tag("e2e")
class SignaturesCommandTest {
    private static final String DIGEST = "sha256:" + "ab".repeat(32);
    private static final String REF = "registry.example/upshift/release@" + DIGEST;

    @TempDir Path dir;

    private Path signedStore() {
        assertThat(run("release", "keygen", "--out", dir.resolve("signer").toString()).code())
                .isZero();
        Path store = dir.resolve("sigs");
        for (int i = 0; i < 2; i++) {
            CliRun.Result signed =
                    run(
                            "release",
                            "sign",
                            REF,
                            "--key",
                            dir.resolve("signer.key").toString(),
                            "--store",
                            store.toString());
            assertThat(signed.code()).as(signed.err()).isZero();
        }
        return store;
    }

    @Test
    void printsOneConfigMapPerReleaseInUpstreamsLayout() throws Exception {
        Path store = signedStore();
        CliRun.Result printed = run("release", "signatures", REF, "--store", store.toString());
        assertThat(printed.code()).as(printed.err()).isZero();
        ConfigMap cm = Mappers.YAML.readValue(printed.out(), ConfigMap.class);
        String name = "sha256-" + "ab".repeat(32);
        assertThat(cm.getMetadata().getName()).isEqualTo(name);
        assertThat(cm.getMetadata().getNamespace()).isEqualTo("openshift-config-managed");
        assertThat(cm.getMetadata().getLabels())
                .containsEntry("release.openshift.io/verification-signatures", "");
        assertThat(cm.getBinaryData()).containsOnlyKeys(name + "-1", name + "-2");
        byte[] first =
                Files.readAllBytes(
                        store.resolve("sha256=" + "ab".repeat(32)).resolve("signature-1"));
        assertThat(Base64.getDecoder().decode(cm.getBinaryData().get(name + "-1")))
                .isEqualTo(first);
    }

    @Test
    void appliedWithKubeconfigTheControllersStoreVerifiesIt() throws Exception {
        Path store = signedStore();
        try (EmbeddedApiServer server = new EmbeddedApiServer()) {
            Path kubeconfig = Files.writeString(dir.resolve("kubeconfig"), server.kubeconfig());
            CliRun.Result noNamespace =
                    run(
                            "release",
                            "signatures",
                            REF,
                            "--store",
                            store.toString(),
                            "--kubeconfig",
                            kubeconfig.toString());
            assertThat(noNamespace.code()).isEqualTo(2);
            assertThat(noNamespace.err())
                    .isEqualTo(
                            "upshift: SignatureStoreFailed: namespace openshift-config-managed does"
                                    + " not exist (kubectl apply -k deploy/ creates it)\n");

            server.client()
                    .namespaces()
                    .resource(
                            new NamespaceBuilder()
                                    .withNewMetadata()
                                    .withName("openshift-config-managed")
                                    .endMetadata()
                                    .build())
                    .create();
            CliRun.Result applied =
                    run(
                            "release",
                            "signatures",
                            REF,
                            "--store",
                            store.toString(),
                            "--kubeconfig",
                            kubeconfig.toString());
            assertThat(applied.code()).as(applied.err()).isZero();
            assertThat(applied.out())
                    .isEqualTo(
                            "configmap openshift-config-managed/sha256-"
                                    + "ab".repeat(32)
                                    + " created (2 signatures)\n");
            CliRun.Result again =
                    run(
                            "release",
                            "signatures",
                            REF,
                            "--store",
                            store.toString(),
                            "--kubeconfig",
                            kubeconfig.toString());
            assertThat(again.out()).endsWith(" unchanged\n");

            Keyring ring =
                    Keyring.parse("signer.pub", Files.readAllBytes(dir.resolve("signer.pub")));
            var verified =
                    new SignatureVerifier(
                                    List.of(ring),
                                    List.of(
                                            new ConfigMapSignatureStore(
                                                    server.client(), "openshift-config-managed")))
                            .verify(REF);
            assertThat(verified.digest()).isEqualTo(DIGEST);
        }
    }

    @Test
    void aReleaseWithoutSignaturesIsNamed() throws Exception {
        Path store = signedStore();
        String other = "sha256:" + "cd".repeat(32);
        CliRun.Result missing =
                run("release", "signatures", REF, other, "--store", store.toString());
        assertThat(missing.code()).isEqualTo(2);
        assertThat(missing.err())
                .startsWith("upshift: SignatureMissing: no signature of " + other + " in " + store)
                .hasLineCount(1);
        assertThat(missing.out()).isEmpty();
    }
}
