package io.upshift.releases.command;

import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.upshift.api.json.Mappers;
import io.upshift.releases.image.ImageRef;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.signatures.ConfigMapSignatureStore;
import io.upshift.releases.signatures.SignatureConfigMap;
import io.upshift.releases.verify.DirectoryStore;
import io.upshift.runtime.cli.KubeconfigOption;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code upshift release signatures}: a signature store directory's signatures of some releases, as
 * the ConfigMaps the cluster-version controller reads; printed as YAML for {@code kubectl apply -f
 * -}, or applied with {@code --kubeconfig}/{@code --apply}.
 */
@Command(
        name = "signatures",
        mixinStandardHelpOptions = true,
        description = {
            "Publish releases' signatures where the cluster-version controller reads them: one"
                    + " ConfigMap per release,",
            "openshift-config-managed/sha256-<hex>, labelled"
                    + " release.openshift.io/verification-signatures, binaryData",
            "sha256-<hex>-<N> (as oc adm release mirror lays them out). Printed as YAML, or applied"
                    + " with --kubeconfig or --apply."
        })
public final class SignaturesCommand implements Callable<Integer> {

    @Spec picocli.CommandLine.Model.CommandSpec spec;

    @Parameters(
            paramLabel = "REF",
            arity = "1..*",
            description =
                    "Releases by digest (HOST/REPO@sha256:… or sha256:…), or by tag (resolved in"
                            + " the registry).")
    List<String> refs;

    @Option(
            names = "--store",
            defaultValue = "signatures",
            paramLabel = "DIR",
            description =
                    "The signature store directory release sign wrote (default: ${DEFAULT-VALUE}).")
    Path store;

    @Option(
            names = "--apply",
            description =
                    "Write the ConfigMaps to the cluster ($KUBECONFIG, in-cluster or"
                            + " ~/.kube/config); implied by --kubeconfig.")
    boolean apply;

    @Mixin KubeconfigOption kube;

    @Mixin RegistryOptions registry;

    @Override
    public Integer call() throws ReleaseException, IOException {
        if (!Files.isDirectory(store))
            throw new ReleaseException(
                    Reason.SIGNATURE_MISSING,
                    store + ": no such signature store directory (--store)");
        List<ConfigMap> maps = new ArrayList<>();
        for (String ref : refs) {
            String digest = digest(ref);
            List<byte[]> signatures = new DirectoryStore(store).signatures(digest);
            if (signatures.isEmpty()) {
                throw new ReleaseException(
                        Reason.SIGNATURE_MISSING,
                        "no signature of "
                                + digest
                                + " in "
                                + store
                                + " (sign it with: upshift release sign "
                                + ref
                                + " --key KEY --store "
                                + store
                                + ")");
            }
            maps.add(SignatureConfigMap.of(digest, signatures));
        }
        PrintWriter out = spec.commandLine().getOut();
        if (!apply && !kube.given()) {
            for (ConfigMap cm : maps)
                out.print("---\n" + Mappers.YAML.writeValueAsString(cm).replaceFirst("^---\n", ""));
            out.flush();
            return 0;
        }
        try (KubernetesClient client = kube.connectAs("upshift-release-signatures")) {
            for (ConfigMap cm : maps) out.println(publish(client, cm));
        }
        return 0;
    }

    private String digest(String ref) throws ReleaseException {
        if (ref.matches("sha256:[0-9a-f]{64}")) return ref;
        ImageRef image = ImageRef.parse(ref);
        return image.digest() != null
                ? image.digest()
                : registry.releases(spec.commandLine().getErr()).resolve(image).digest();
    }

    /**
     * Creates the ConfigMap, or updates the one there (conditional on what was read) when its
     * signatures differ.
     */
    private static String publish(KubernetesClient client, ConfigMap wanted)
            throws ReleaseException {
        String where =
                "configmap "
                        + ConfigMapSignatureStore.NAMESPACE
                        + "/"
                        + wanted.getMetadata().getName();
        try {
            if (client.namespaces().withName(ConfigMapSignatureStore.NAMESPACE).get() == null) {
                throw new ReleaseException(
                        Reason.SIGNATURE_STORE_FAILED,
                        "namespace "
                                + ConfigMapSignatureStore.NAMESPACE
                                + " does not exist (kubectl apply -k deploy/ creates it)");
            }
            var resource =
                    client.configMaps()
                            .inNamespace(ConfigMapSignatureStore.NAMESPACE)
                            .withName(wanted.getMetadata().getName());
            ConfigMap live = resource.get();
            if (live == null) {
                client.configMaps()
                        .inNamespace(ConfigMapSignatureStore.NAMESPACE)
                        .resource(wanted)
                        .create();
                return where + " created (" + wanted.getBinaryData().size() + " signatures)";
            }
            if (SignatureConfigMap.same(live, wanted)) return where + " unchanged";
            wanted.getMetadata().setResourceVersion(live.getMetadata().getResourceVersion());
            client.configMaps()
                    .inNamespace(ConfigMapSignatureStore.NAMESPACE)
                    .resource(wanted)
                    .update();
            return where + " updated (" + wanted.getBinaryData().size() + " signatures)";
        } catch (KubernetesClientException e) {
            throw new ReleaseException(
                    Reason.SIGNATURE_STORE_FAILED,
                    "cannot write "
                            + where
                            + ": HTTP "
                            + e.getCode()
                            + " "
                            + (e.getStatus() != null && e.getStatus().getMessage() != null
                                    ? e.getStatus().getMessage()
                                    : e.getMessage()),
                    e);
        }
    }
}
