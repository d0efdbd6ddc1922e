package io.upshift.demo;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.pools.model.RequiredPools;
import io.upshift.releases.image.ControllerDeployment;
import io.upshift.testkit.SimulatedCluster;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The demo's release payloads: the cluster-version controller's own manifests in run-level 00
 * (CRDs, namespace, the admin gate and ack ConfigMaps, its Deployment as deploy/ has it, templated
 * with the release image, the verification ConfigMap trusting the demo key), then {@code operators}
 * components spread over {@code runLevels} run-levels, each a namespace, a Deployment and a
 * ClusterOperator that reports the release version once its Deployment has rolled out.
 */
public final class DemoPayloads {

    public static final String OPERATOR_LABEL = SimulatedCluster.OPERATOR_LABEL;
    public static final String VERSION_ANNOTATION = SimulatedCluster.VERSION_ANNOTATION;

    /** The component whose operator is the real pool controller, when the demo has nodes. */
    public static final String MACHINE_CONFIG = "machine-config";

    static final String INCLUDE =
            "    include.release.openshift.io/self-managed-high-availability: \"true\"\n";

    /** One simulated component: its name and run-level. */
    public record Component(String name, int runLevel) {
        /**
         * Its namespace, {@code openshift-<name>}; machine-config's is OpenShift's, where {@code
         * oc} looks for it.
         */
        public String namespace() {
            return name.equals(MACHINE_CONFIG)
                    ? "openshift-machine-config-operator"
                    : "openshift-" + name;
        }

        /** Its operator's Deployment, and that Deployment's container. */
        public String operator() {
            return name + "-operator";
        }
    }

    private DemoPayloads() {}

    public static List<Component> components(int operators, int runLevels) {
        return components(operators, runLevels, false);
    }

    /**
     * {@code operators} simulated components over {@code runLevels} run-levels; with {@code
     * machineConfig}, also the machine-config component in the last run-level (as OpenShift's comes
     * late), whose operator is the real pool controller.
     */
    public static List<Component> components(int operators, int runLevels, boolean machineConfig) {
        List<Component> out = new ArrayList<>();
        for (int i = 0; i < operators; i++)
            out.add(
                    new Component(
                            NAMES.get(i % NAMES.size())
                                    + (i < NAMES.size() ? "" : "-" + (i / NAMES.size())),
                            10 + (i % runLevels) * 5));
        if (machineConfig) out.add(new Component(MACHINE_CONFIG, 10 + (runLevels - 1) * 5));
        return out;
    }

    /**
     * Writes the payload of {@code version} into {@code dir}; {@code publicKey} and {@code store}
     * configure verification.
     */
    public static Path write(
            Path dir, String version, List<Component> components, String publicKey, Path store)
            throws IOException {
        return write(dir, version, components, publicKey, store, null);
    }

    /**
     * As {@link #write(Path, String, List, String, Path)}, with another release's ClusterVersion
     * CRD when {@code clusterVersionCrd} is set.
     */
    public static Path write(
            Path dir,
            String version,
            List<Component> components,
            String publicKey,
            Path store,
            Path clusterVersionCrd)
            throws IOException {
        Path m = Files.createDirectories(dir.resolve("manifests"));
        Path r = Files.createDirectories(dir.resolve("release-manifests"));
        for (String crd :
                List.of(
                        "clusterversions.config.openshift.io",
                        "clusteroperators.config.openshift.io")) {
            Path file = m.resolve("0000_00_cluster-version-operator_01_" + crd + ".crd.yaml");
            if (clusterVersionCrd != null && crd.startsWith("clusterversions")) {
                Files.copy(clusterVersionCrd, file);
                continue;
            }
            try (InputStream in =
                    DemoPayloads.class.getResourceAsStream("/crds/" + crd + ".yaml")) {
                Files.write(file, in.readAllBytes());
            }
        }
        adminGates(m);
        Files.writeString(
                m.resolve("0000_00_cluster-version-operator_02_namespace.yaml"),
                "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: upshift\n  annotations:\n"
                        + INCLUDE);
        Files.writeString(m.resolve(ControllerDeployment.FILE), controller(version));
        Files.writeString(
                m.resolve("0000_00_cluster-version-operator_04_verification.yaml"),
                verification(publicKey, store));
        Files.writeString(
                r.resolve("0000_00_config-managed_00_namespace.yaml"),
                "apiVersion: v1\n"
                        + "kind: Namespace\n"
                        + "metadata:\n"
                        + "  name: openshift-config-managed\n"
                        + "  annotations:\n"
                        + INCLUDE);
        for (Component c : components) {
            String prefix = String.format("0000_%02d_%s_", c.runLevel(), c.name());
            String ns = c.namespace();
            Files.writeString(
                    r.resolve(prefix + "00_namespace.yaml"),
                    "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: "
                            + ns
                            + "\n  annotations:\n"
                            + INCLUDE);
            Files.writeString(
                    r.resolve(prefix + "01_deployment.yaml"),
                    deployment(
                            ns,
                            /* name= */ c.operator(),
                            "quay.example/" + c.name() + ":" + version,
                            version,
                            /* component= */ c.name()));
            if (c.name().equals(MACHINE_CONFIG)) machineConfig(r, prefix, version);
            // Last in its component: the cluster-version controller waits here until the operator
            // reports the version.
            Files.writeString(
                    r.resolve(prefix + "09_clusteroperator.yaml"),
                    "apiVersion: config.openshift.io/v1\nkind: ClusterOperator\nmetadata:\n  name: "
                            + c.name()
                            + "\n  annotations:\n"
                            + INCLUDE
                            + "spec: {}\nstatus:\n  versions:\n  - name: operator\n    version: "
                            + version
                            + "\n");
        }
        return dir;
    }

    /**
     * As upstream's operator ships them: the admin gates (none in the demo's releases; the
     * controller keeps them) and the administrator's acknowledgements (created once, then the
     * administrator's), without which the cluster would not be upgradeable
     * (UnableToAccessAdminGatesConfigMap).
     */
    private static void adminGates(Path m) throws IOException {
        Files.writeString(
                m.resolve("0000_00_cluster-version-operator_00_namespace-config.yaml"),
                "apiVersion: v1\n"
                        + "kind: Namespace\n"
                        + "metadata:\n"
                        + "  name: openshift-config\n"
                        + "  annotations:\n"
                        + INCLUDE);
        Files.writeString(
                m.resolve("0000_00_cluster-version-operator_01_adminack_configmap.yaml"),
                "apiVersion: v1\n"
                        + "kind: ConfigMap\n"
                        + "metadata:\n"
                        + "  name: admin-acks\n"
                        + "  namespace: openshift-config\n"
                        + "  annotations:\n"
                        + INCLUDE
                        + "    release.openshift.io/create-only: \"true\"\n");
        Files.writeString(
                m.resolve("0000_00_cluster-version-operator_01_admingate_configmap.yaml"),
                "apiVersion: v1\n"
                        + "kind: ConfigMap\n"
                        + "metadata:\n"
                        + "  name: admin-gates\n"
                        + "  namespace: openshift-config-managed\n"
                        + "  annotations:\n"
                        + INCLUDE);
    }

    /**
     * The verification ConfigMap trusting {@code publicKey}, its signatures in the directory {@code
     * store}.
     */
    static String verification(String publicKey, Path store) {
        StringBuilder key = new StringBuilder();
        publicKey.lines().forEach(l -> key.append("    ").append(l).append('\n'));
        return "apiVersion: v1\n"
                + "kind: ConfigMap\n"
                + "metadata:\n"
                + "  name: release-verification\n"
                + "  namespace: openshift-config-managed\n"
                + "  annotations:\n"
                + INCLUDE
                + "    release.openshift.io/verification-config-map: \"\"\n"
                + "data:\n"
                + "  verifier-public-key-demo: |\n"
                + key
                + "  store-local: "
                + store.toUri()
                + "\n";
    }

    /**
     * What the machine-config component brings besides its operator: the pool CRDs, the
     * MachineConfiguration CRD (its operator creates the object) and the MachineConfigNode CRD (one
     * per node); no MachineConfigs, but what the pool controller renders the base ones from, as
     * OpenShift's payload carries the OS image and the machine-config operator's image its
     * templates: the ConfigMap {@code machine-config-osimageurl} with this release's OS image, and
     * {@code machine-config-templates}, whose templates make {@code 00-<role>} (a file naming the
     * role, with the common file naming the release) and {@code 01-<role>-kubelet} (a kubelet
     * drop-in) for master and worker; then the master and worker pools (master labelled
     * required-for-upgrade, as upstream's). The ConfigMaps come before the operator's Deployment;
     * the pools are create-only: once there, they are the administrator's (paused, maxUnavailable),
     * as in OpenShift.
     */
    private static void machineConfig(Path r, String prefix, String version) throws IOException {
        for (String crd :
                List.of(
                        "machineconfigpools.machineconfiguration.openshift.io",
                        "machineconfigs.machineconfiguration.openshift.io",
                        "machineconfigurations.operator.openshift.io",
                        "machineconfignodes.machineconfiguration.openshift.io")) {
            try (InputStream in =
                    DemoPayloads.class.getResourceAsStream("/crds/" + crd + ".yaml")) {
                Files.write(
                        r.resolve(
                                prefix + "00_crd-" + crd.substring(0, crd.indexOf('.')) + ".yaml"),
                        in.readAllBytes());
            }
        }
        Map<String, String> osImage = new LinkedHashMap<>();
        osImage.put("releaseVersion", version);
        osImage.put("baseOSContainerImage", "quay.example/upshift-demo/node-os:" + version);
        osImage.put("baseOSExtensionsContainerImage", "");
        osImage.put("osImageURL", "");
        Files.writeString(
                r.resolve(prefix + "00_osimageurl.yaml"),
                configMap("machine-config-osimageurl", osImage));
        Files.writeString(
                r.resolve(prefix + "00_templates.yaml"),
                configMap("machine-config-templates", templates(version)));
        for (String role : List.of("master", "worker")) {
            Files.writeString(
                    r.resolve(prefix + "00_pool-" + role + ".yaml"),
                    "apiVersion: machineconfiguration.openshift.io/v1\nkind: MachineConfigPool\n"
                            + "metadata:\n  name: "
                            + role
                            + "\n"
                            // as upstream's master pool: the machine-config operator reports a
                            // release only once this pool runs it
                            + (role.equals("master")
                                    ? "  labels:\n    " + RequiredPools.LABEL + ": \"\"\n"
                                    : "")
                            + "  annotations:\n"
                            + INCLUDE
                            + "    release.openshift.io/create-only: \"true\"\n"
                            + "spec:\n  maxUnavailable: "
                            + (role.equals("master") ? 1 : 2)
                            + "\n"
                            + "  machineConfigSelector:\n"
                            + "    matchLabels:\n"
                            + "      machineconfiguration.openshift.io/role: "
                            + role
                            + "\n"
                            + "  nodeSelector:\n    matchLabels:\n      node-role.kubernetes.io/"
                            + role
                            + ": \"\"\n");
        }
    }

    /**
     * The demo's machine-config templates (see docs/node-pools.md for the layout and the fields).
     */
    static Map<String, String> templates(String version) {
        Map<String, String> t = new LinkedHashMap<>();
        t.put("releaseVersion", version);
        t.put(
                "common._base.files.upshift-demo-release.yaml",
                "path: /etc/upshift-demo/release\n"
                        + "mode: 0644\n"
                        + "contents:\n"
                        + "  inline: \"{{.ReleaseVersion}}\"\n");
        for (String role : List.of("master", "worker")) {
            t.put(
                    role + ".00-" + role + "._base.files.upshift-demo-role.yaml",
                    "path: /etc/upshift-demo/role\nmode: 0644\ncontents:\n  inline: "
                            + role
                            + "\n");
            t.put(
                    role + ".01-" + role + "-kubelet._base.units.kubelet.service.yaml",
                    "name: kubelet.service\n"
                            + "dropins:\n"
                            + "- name: 10-upshift-demo.conf\n"
                            + "  contents: |\n"
                            + "    [Service]\n"
                            + "    Environment=UPSHIFT_RELEASE={{.ReleaseVersion}}"
                            + " UPSHIFT_OS={{.OSImageURL}}\n");
        }
        return t;
    }

    private static String configMap(String name, Map<String, String> data) throws IOException {
        ObjectNode cm =
                Mappers.JSON.createObjectNode().put("apiVersion", "v1").put("kind", "ConfigMap");
        ObjectNode metadata =
                cm.putObject("metadata")
                        .put("name", name)
                        .put("namespace", "openshift-machine-config-operator");
        metadata.putObject("annotations")
                .put("include.release.openshift.io/self-managed-high-availability", "true");
        data.forEach(cm.putObject("data")::put);
        return Mappers.YAML.writeValueAsString(cm);
    }

    /**
     * The controller's own Deployment, as every release built on Upshift's image carries it:
     * deploy/'s ({@link ControllerDeployment}), running the release image with {@code --release}
     * naming it, and the release's version annotated for the simulation's rollout.
     */
    static String controller(String version) {
        ObjectNode d = ControllerDeployment.released();
        ((ObjectNode) d.path("metadata").path("annotations")).put(VERSION_ANNOTATION, version);
        try {
            return Mappers.YAML.writeValueAsString(d);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String deployment(
            String ns, String name, String image, String version, String component) {
        return "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: "
                + name
                + "\n  namespace: "
                + ns
                + "\n  annotations:\n"
                + INCLUDE
                + "    "
                + VERSION_ANNOTATION
                + ": \""
                + version
                + "\"\n"
                + (component == null
                        ? ""
                        : "  labels:\n    " + OPERATOR_LABEL + ": " + component + "\n")
                + "spec:\n  replicas: 1\n  selector:\n    matchLabels:\n      app: "
                + name
                + "\n  template:\n    metadata:\n      labels:\n        app: "
                + name
                + "\n    spec:\n      containers:\n      - name: "
                + name
                + "\n        image: '"
                + image
                + "'\n";
    }

    private static final List<String> NAMES =
            List.of(
                    "etcd",
                    "kube-apiserver",
                    "kube-controller-manager",
                    "kube-scheduler",
                    "openshift-apiserver",
                    "authentication",
                    "network",
                    "dns",
                    "ingress",
                    "image-registry",
                    "storage",
                    "console",
                    "monitoring",
                    "service-ca",
                    "config-operator",
                    "machine-api",
                    "cloud-credential",
                    "cluster-autoscaler",
                    "insights",
                    "marketplace",
                    "node-tuning",
                    "olm",
                    "openshift-samples",
                    "csi-snapshot-controller",
                    "kube-storage-version-migrator",
                    "baremetal",
                    "control-plane-machine-set",
                    "etcd-backup",
                    "operator-lifecycle-manager",
                    "cluster-api");
}
