package io.upshift.cli;

import static io.upshift.cli.CliRun.run;
import static org.assertj.core.api.Assertions.assertThat;

import io.upshift.releases.manifest.ManifestReader;
import io.upshift.releases.metadata.ImageReferences;
import io.upshift.releases.verify.VerifierConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The release commands end to end on an OCI layout: keygen, new, info, graph, sign, verify,
 * extract, and refusals.
 */
@Tag("e2e")
class ReleaseCommandTest {

    @TempDir Path dir;

    private Path payload() throws Exception {
        Path p = dir.resolve("payload");
        Files.createDirectories(p.resolve("manifests"));
        Files.createDirectories(p.resolve("release-manifests"));
        for (String f :
                new String[] {"0000_10_a_one.yaml", "0000_20_b_two.yaml", "0000_20_c_three.yaml"}) {
            Files.writeString(
                    p.resolve("release-manifests").resolve(f),
                    "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: "
                            + f.replace('_', '-').replace(".yaml", "")
                            + "\n"
                            + "  namespace: ns\n"
                            + "  annotations:\n"
                            + "    include.release.openshift.io/self-managed-high-availability:"
                            + " \"true\"\n");
        }
        return p;
    }

    @Test
    void publishInspectSignVerifyAndExtract() throws Exception {
        String layout = "oci:" + dir.resolve("images") + ":2.1.0";
        assertThat(run("release", "keygen", "--out", dir.resolve("signer").toString()).code())
                .isZero();

        CliRun.Result published =
                run(
                        "release",
                        "new",
                        "--from",
                        payload().toString(),
                        "--version",
                        "2.1.0",
                        "--previous",
                        "2.0.0",
                        "--to",
                        layout);
        assertThat(published.code()).as(published.err()).isZero();
        assertThat(published.out())
                .startsWith("Published 2.1.0 as oci:" + dir.resolve("images") + "@sha256:");
        String digest = published.out().strip().replaceFirst(".*@", "");

        CliRun.Result info = run("release", "info", layout);
        assertThat(info.out())
                .contains("Name:      2.1.0\nDigest:    " + digest)
                .contains("  Upgrades: 2.0.0\n")
                .contains("  run-level 10: 1\n  run-level 20: 2\n");

        CliRun.Result graph = run("release", "graph", layout);
        assertThat(graph.out())
                .startsWith(
                        "Updating graph of release 2.1.0: 3 manifests in 3 nodes (1 spacers), 16"
                                + " workers")
                .contains("node 2 after 1: 1 manifest");
        assertThat(run("release", "graph", layout, "--format=dot").out())
                .startsWith("digraph tasks {")
                .contains("  0 -> 1;");

        Path store = dir.resolve("sigs");
        CliRun.Result signed =
                run(
                        "release",
                        "sign",
                        layout,
                        "--key",
                        dir.resolve("signer.key").toString(),
                        "--store",
                        store.toString());
        assertThat(signed.code()).as(signed.err()).isZero();
        assertThat(store.resolve("sha256=" + digest.substring(7)).resolve("signature-1")).exists();

        CliRun.Result verified =
                run(
                        "release",
                        "verify",
                        digest,
                        "--keyring",
                        dir.resolve("signer.pub").toString(),
                        "--store",
                        store.toString());
        assertThat(verified.code()).as(verified.err()).isZero();
        assertThat(verified.out()).startsWith("Verified " + digest);

        assertThat(run("release", "extract", layout, "--to", dir.resolve("out").toString()).code())
                .isZero();
        assertThat(dir.resolve("out/release-manifests/0000_20_c_three.yaml")).exists();
    }

    @Test
    void trustedKeysBecomeThePayloadsVerificationConfigMap() throws Exception {
        assertThat(run("release", "keygen", "--out", dir.resolve("signer").toString()).code())
                .isZero();
        Path payload = payload();
        String layout = "oci:" + dir.resolve("images") + ":3.0.0";
        CliRun.Result published =
                run(
                        "release",
                        "new",
                        "--from",
                        payload.toString(),
                        "--version",
                        "3.0.0",
                        "--trust",
                        dir.resolve("signer.pub").toString(),
                        "--to",
                        layout);
        assertThat(published.code()).as(published.err()).isZero();
        assertThat(payload.resolve("manifests")).as("--from is left as it was").isEmptyDirectory();

        assertThat(run("release", "extract", layout, "--to", dir.resolve("out").toString()).code())
                .isZero();
        Path written =
                dir.resolve("out/manifests/0000_00_cluster-version-operator_04_verification.yaml");
        var loaded =
                ManifestReader.read(written.getFileName().toString(), Files.readString(written));
        var config = VerifierConfig.fromPayload(loaded);
        assertThat(config.source()).isEqualTo("openshift-config-managed/release-verification");
        assertThat(config.keyrings()).hasSize(1);
        assertThat(Files.readString(written))
                .contains("verifier-public-key-signer")
                .contains("kind: \"Namespace\"");

        CliRun.Result notAKey =
                run(
                        "release",
                        "new",
                        "--from",
                        payload.toString(),
                        "--version",
                        "3.0.1",
                        "--trust",
                        payload.resolve("release-manifests")
                                .resolve("0000_10_a_one.yaml")
                                .toString(),
                        "--to",
                        "oci:" + dir.resolve("images") + ":3.0.1");
        assertThat(notAKey.code()).isEqualTo(2);
        assertThat(notAKey.err()).startsWith("upshift: KeyInvalid: ").hasLineCount(1);
    }

    @Test
    void graphForAClusterConfigurationAsTabSeparatedLines() throws Exception {
        Path p = payload();
        Files.writeString(
                p.resolve("release-manifests/0000_20_b_two.yaml"),
                "\n    capability.openshift.io/name: Console\n",
                StandardOpenOption.APPEND);
        Files.writeString(
                p.resolve("release-manifests/0000_30_d_tech.yaml"),
                "apiVersion: v1\n"
                    + "kind: ConfigMap\n"
                    + "metadata:\n"
                    + "  name: d\n"
                    + "  namespace: ns\n"
                    + "  annotations:\n"
                    + "    include.release.openshift.io/self-managed-high-availability: \"true\"\n"
                    + "    release.openshift.io/feature-set: TechPreviewNoUpgrade\n"
                    + "---\n"
                    + "apiVersion: v1\n"
                    + "kind: ConfigMap\n"
                    + "metadata:\n"
                    + "  name: e\n"
                    + "  namespace: ns\n"
                    + "  annotations:\n"
                    + "    include.release.openshift.io/self-managed-high-availability: \"true\"\n"
                    + "    exclude.release.openshift.io/internal-openshift-hosted: \"true\"\n");
        Files.writeString(
                p.resolve("release-manifests/release-metadata"),
                "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\"2.1.0\"}");
        Files.writeString(
                p.resolve("release-manifests/image-references"),
                "{\"kind\":\"ImageStream\",\"apiVersion\":\"image.openshift.io/v1\",\"metadata\":{\"name\":\"2.1.0\"}}");

        CliRun.Result tsv =
                run(
                        "release",
                        "graph",
                        p.toString(),
                        "--format=tsv",
                        "--mode=UPDATING",
                        "--baseline-capabilities=None",
                        "--exclude=internal-openshift-hosted");
        assertThat(tsv.code()).as(tsv.err()).isZero();
        assertThat(tsv.out())
                .isEqualTo(
                        """
                        node\t0\tin=[]\t
                        node\t1\tin=[0]\t0000_10_a_one.yaml
                        node\t2\tin=[1]\t0000_20_b_two.yaml
                        node\t3\tin=[1]\t0000_20_c_three.yaml
                        skipped\t0000_20_b_two.yaml\tConfigMap\tns/0000-20-b-two\tdisabled capabilities: Console
                        excluded\t0000_30_d_tech.yaml\tConfigMap\tns/d\t"Default" is required, and release.openshift.io/feature-set=TechPreviewNoUpgrade
                        excluded\t0000_30_d_tech.yaml\tConfigMap\tns/e\texclude.release.openshift.io/internal-openshift-hosted=true
                        """);
        CliRun.Result tech =
                run(
                        "release",
                        "graph",
                        p.toString(),
                        "--format=tsv",
                        "--feature-set=TechPreviewNoUpgrade",
                        "--capabilities=Console");
        assertThat(tech.out())
                .contains("node\t4\tin=[2,3]\t0000_30_d_tech.yaml,0000_30_d_tech.yaml\n")
                .doesNotContain("skipped");
        CliRun.Result flat =
                run("release", "graph", p.toString(), "--format=tsv", "--mode=initializing");
        assertThat(flat.out())
                .startsWith(
                        "node\t0\tin=[]\t\n"
                                + "node\t1\tin=[0]\t0000_10_a_one.yaml\n"
                                + "node\t2\tin=[0]\t0000_20_b_two.yaml\n");
        assertThat(run("release", "graph", p.toString(), "--mode=sideways").err())
                .isEqualTo(
                        "upshift: --mode must be updating, initializing or reconciling, not"
                                + " \"sideways\"\n");
        assertThat(run("release", "graph", p.toString(), "--baseline-capabilities=v9").err())
                .startsWith("upshift: --baseline-capabilities \"v9\" is not one of None, v4.11");
    }

    @Test
    void aRealOpenShiftPayloadBecomesAReleaseImageWithTheSameGraph() throws Exception {
        Path fixture =
                Path.of(
                        System.getProperty("upshift.fixtures", "../../shared/fixtures"),
                        "openshift-payload-4.19");
        Assumptions.assumeTrue(Files.isDirectory(fixture), "shared fixtures not present");
        String layout = "oci:" + dir.resolve("images") + ":4.19.0";
        CliRun.Result published =
                run(
                        "release",
                        "new",
                        "--from",
                        fixture.toString(),
                        "--version",
                        "4.19.0",
                        "--to",
                        layout);
        assertThat(published.code()).as(published.err()).isZero();
        CliRun.Result info = run("release", "info", layout);
        // the release's time is the one its ImageStream records
        String created =
                ImageReferences.parse(
                                Files.readAllBytes(
                                        fixture.resolve("release-manifests/image-references")),
                                "image-references")
                        .created()
                        .toString();
        assertThat(info.out())
                .contains("Name:      4.19.0")
                .contains("\nCreated:   " + created + "\n")
                .contains("  Upgrades: 4.18.13, 4.18.14")
                .contains("\nManifests: 434\n")
                .contains("\nComponent Versions:\n  kubernetes 1.32.5 \n");
        assertThat(run("release", "info", "--commits", layout).out())
                .contains("\nImages:\n  NAME ")
                .containsPattern(
                        "\n  cluster-version-operator +https://github.com/openshift/"
                                + "cluster-version-operator +[0-9a-f]{40}\n");
        assertThat(run("release", "info", "--pullspecs", layout).out())
                .containsPattern(
                        "\n  cluster-version-operator +quay.io/\\S+@sha256:[0-9a-f]{64}\n");
        CliRun.Result both = run("release", "info", "--commits", "--pullspecs", layout);
        assertThat(both.code()).isEqualTo(2);
        assertThat(both.err()).startsWith("upshift: ").contains("mutually exclusive");
        for (String[] configuration :
                List.of(
                        new String[] {"--mode=updating"},
                        new String[] {"--mode=initializing", "--baseline-capabilities=None"},
                        new String[] {
                            "--profile=single-node-developer", "--feature-set=TechPreviewNoUpgrade"
                        })) {
            List<String> fromDir =
                    new ArrayList<>(
                            List.of("release", "graph", fixture.toString(), "--format=tsv"));
            List<String> fromImage =
                    new ArrayList<>(List.of("release", "graph", layout, "--format=tsv"));
            fromDir.addAll(List.of(configuration));
            fromImage.addAll(List.of(configuration));
            CliRun.Result a = run(fromDir.toArray(String[]::new)),
                    b = run(fromImage.toArray(String[]::new));
            assertThat(b.code()).as(b.err()).isZero();
            assertThat(b.out())
                    .as(String.join(" ", configuration))
                    .isEqualTo(a.out())
                    .startsWith("node\t0\tin=[]\t");
        }
    }

    @Test
    void refusalsAreOneLineWithTheReasonCode() throws Exception {
        run("release", "keygen", "--out", dir.resolve("k").toString());
        CliRun.Result unsigned =
                run(
                        "release",
                        "verify",
                        "sha256:" + "0".repeat(64),
                        "--keyring",
                        dir.resolve("k.pub").toString(),
                        "--store",
                        dir.toString());
        assertThat(unsigned.code()).isEqualTo(2);
        assertThat(unsigned.err())
                .startsWith("upshift: SignatureMissing: no signature for sha256:0000")
                .hasLineCount(1);

        CliRun.Result byTag =
                run(
                        "release",
                        "verify",
                        "registry.example/r:1.0.0",
                        "--keyring",
                        dir.resolve("k.pub").toString(),
                        "--store",
                        dir.toString());
        assertThat(byTag.err()).startsWith("upshift: ReleaseNotByDigest: ");

        CliRun.Result badVersion =
                run(
                        "release",
                        "new",
                        "--from",
                        payload().toString(),
                        "--version",
                        "two",
                        "--to",
                        "oci:" + dir.resolve("i"));
        assertThat(badVersion.code()).isEqualTo(2);
        assertThat(badVersion.err())
                .isEqualTo(
                        "upshift: ReleaseMetadataInvalid: --version \"two\" is not a semantic"
                                + " version\n");
        assertThat(dir.resolve("i")).doesNotExist();

        CliRun.Result missing = run("release", "info", "oci:" + dir.resolve("nothing"));
        assertThat(missing.err()).startsWith("upshift: ImageNotFound: ");

        CliRun.Result overwrite = run("release", "keygen", "--out", dir.resolve("k").toString());
        assertThat(overwrite.code()).isEqualTo(2);
        assertThat(overwrite.err()).contains("already exists; not overwriting a key");
    }

    @Test
    void theGraphCountsTheCapabilitiesThePayloadsOperatorAlwaysEnables() throws Exception {
        Path p = payload();
        Files.writeString(
                p.resolve("release-manifests/release-metadata"),
                "{\"kind\":\"cincinnati-metadata-v0\",\"version\":\"2.1.0\"}");
        Files.writeString(
                p.resolve("release-manifests/image-references"),
                "{\"kind\":\"ImageStream\",\"apiVersion\":\"image.openshift.io/v1\",\"metadata\":{\"name\":\"2.1.0\"}}");
        Files.writeString(
                p.resolve("release-manifests/0000_50_ingress_00_router.yaml"),
                "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: router\n  namespace: ns\n"
                        + "  annotations:\n"
                        + "    include.release.openshift.io/self-managed-high-availability:"
                        + " \"true\"\n"
                        + "    capability.openshift.io/name: Ingress\n");
        // upstream's operator Deployment, as OpenShift's payload carries it
        Files.writeString(
                p.resolve("manifests/0000_00_cluster-version-operator_03_deployment.yaml"),
                "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n"
                        + "  name: cluster-version-operator\n"
                        + "  namespace: openshift-cluster-version\n  annotations:\n"
                        + "    include.release.openshift.io/self-managed-high-availability:"
                        + " \"true\"\n"
                        + "spec:\n  template:\n    spec:\n      containers:\n"
                        + "      - name: cluster-version-operator\n"
                        + "        image: '{{.ReleaseImage}}'\n"
                        + "        args: [start, '--release-image={{.ReleaseImage}}',"
                        + " --always-enable-capabilities=Ingress]\n");
        CliRun.Result text = run("release", "graph", p.toString(), "--baseline-capabilities=None");
        assertThat(text.code()).as(text.err()).isZero();
        assertThat(text.out())
                .contains("0000_50_ingress_00_router.yaml  ConfigMap ns/router")
                .contains(
                        "\ncapabilities enabled implicitly (always enabled by the cluster-version"
                                + " operator): Ingress\n")
                .doesNotContain("skipped when applying");
        CliRun.Result none =
                run(
                        "release",
                        "graph",
                        p.toString(),
                        "--format=tsv",
                        "--baseline-capabilities=None",
                        "--always-enable-capabilities=");
        assertThat(none.out())
                .contains(
                        "skipped\t0000_50_ingress_00_router.yaml\tConfigMap\tns/router\tdisabled"
                                + " capabilities: Ingress\n");
        CliRun.Result unknown =
                run(
                        "release",
                        "graph",
                        p.toString(),
                        "--always-enable-capabilities=Ingress,Routers");
        assertThat(unknown.code()).isEqualTo(2);
        assertThat(unknown.err())
                .isEqualTo(
                        "upshift: --always-enable-capabilities was set with unknown capabilities:"
                                + " [Routers]\n");
    }
}
