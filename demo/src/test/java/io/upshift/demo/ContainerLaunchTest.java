package io.upshift.demo;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.upshift.api.json.Mappers;
import io.upshift.releases.image.ControllerDeployment;
import io.upshift.releases.manifest.ManifestTemplate;
import java.net.BindException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The demo's kubelet starts a container from its pod's spec alone: args and env as the spec writes
 * them, resolved as a kubelet resolves them, volumes on the node; what it cannot run faithfully it
 * refuses.
 */
class ContainerLaunchTest {

    private static final String IMAGE = "registry.example/releases@sha256:" + "b".repeat(64);
    private static final Map<String, String> GIVEN =
            new TreeMap<>(
                    Map.of(
                            "KUBERNETES_SERVICE_HOST",
                            "127.0.0.1",
                            "KUBERNETES_SERVICE_PORT",
                            "6443"));

    @TempDir Path dir;

    /** Ports of this machine handed out in turn from 40001, each protocol named. */
    private final List<String> asked = new ArrayList<>();

    private final ContainerLaunch.HostPorts ports =
            protocol -> {
                asked.add(protocol);
                return 40000 + asked.size();
            };

    /**
     * A pod of the controller's Deployment as a release carries it, scheduled on control-plane-0.
     */
    static Pod controllerPod(String image) throws Exception {
        String manifest =
                new ManifestTemplate(image, "self-managed-high-availability", Map.of())
                        .render(ControllerDeployment.manifest());
        Deployment d = Mappers.YAML.readValue(manifest, Deployment.class);
        return new PodBuilder()
                .withNewMetadata()
                .withName("cluster-version-operator-abc-1")
                .withNamespace("openshift-cluster-version")
                .withLabels(d.getSpec().getTemplate().getMetadata().getLabels())
                .endMetadata()
                .withSpec(d.getSpec().getTemplate().getSpec())
                .editSpec()
                .withNodeName("control-plane-0")
                .endSpec()
                .build();
    }

    @Test
    void theControllersPodGetsItsArgsEnvAndPayloadDirectoryFromItsSpec() throws Exception {
        Path node = dir.resolve("hosts/control-plane-0");
        ContainerLaunch launch =
                ContainerLaunch.of(
                        controllerPod(IMAGE),
                        GIVEN,
                        node,
                        dir.resolve("pod"),
                        ContainerLaunch.ConfigMaps.NONE,
                        ports);

        Path payloads = node.resolve("var/lib/upshift/payloads");
        Path servingCert = dir.resolve("pod/volumes/serving-cert");
        assertThat(launch.container()).isEqualTo("controller");
        assertThat(launch.args())
                .containsExactly(
                        "operator",
                        "--namespace",
                        "openshift-cluster-version",
                        "--identity",
                        "cluster-version-operator-abc-1",
                        "--metrics-port",
                        "40001",
                        "--metrics-auth",
                        "token",
                        "--serving-cert-file",
                        servingCert.resolve("tls.crt").toString(),
                        "--serving-key-file",
                        servingCert.resolve("tls.key").toString(),
                        "--serving-cert-optional",
                        "--health-port",
                        "40002",
                        "--payload-cache",
                        payloads.toString(),
                        "--always-enable-capabilities=Ingress",
                        "--release",
                        IMAGE);
        assertThat(launch.env())
                .containsExactly(
                        Map.entry("KUBERNETES_SERVICE_HOST", "127.0.0.1"),
                        Map.entry("KUBERNETES_SERVICE_PORT", "6443"),
                        Map.entry("NODE_NAME", "control-plane-0"),
                        Map.entry("POD_NAME", "cluster-version-operator-abc-1"));
        Path serviceCa = dir.resolve("pod/volumes/service-ca");
        assertThat(launch.mounts())
                .containsExactly(
                        Map.entry("/var/lib/upshift/payloads", payloads),
                        Map.entry("/etc/tls/service-ca", serviceCa),
                        Map.entry("/etc/tls/serving-cert", servingCert),
                        Map.entry("/tmp", dir.resolve("pod/volumes/tmp")));
        assertThat(launch.ports())
                .as("its metrics and health ports, on ports of this machine no one else asks for")
                .containsExactly(Map.entry(9099, 40001), Map.entry(9098, 40002));
        assertThat(payloads).as("hostPath DirectoryOrCreate, made on the node").isDirectory();
        assertThat(serviceCa)
                .as("the optional service CA ConfigMap, absent: an empty volume")
                .isEmptyDirectory();
        assertThat(servingCert)
                .as("the optional serving certificate Secret, absent: an empty volume")
                .isEmptyDirectory();
    }

    @Test
    void aDeploymentWithoutReleaseRunsWithoutIt() throws Exception {
        Pod pod = controllerPod(IMAGE);
        var args = pod.getSpec().getContainers().get(0).getArgs();
        args.subList(args.indexOf("--release"), args.size()).clear();
        assertThat(ContainerLaunch.of(pod, GIVEN, dir.resolve("node"), dir.resolve("pod")).args())
                .doesNotContain("--release", IMAGE);
    }

    @Test
    void envAndArgsAreResolvedAsAKubeletDoes() throws Exception {
        Pod pod =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p-1, namespace: ns, uid: u-1, labels: {app: web}, annotations: {note: hi}}
                        spec:
                          nodeName: n1
                          serviceAccountName: sa
                          containers:
                          - name: c
                            image: i
                            args: [--node=$(NODE), $(UNDEFINED), $$(NODE), --data, /data/x, --data=/data, /datax, $(DIR)/y]
                            env:
                            - {name: KUBERNETES_SERVICE_PORT, value: "1"}
                            - {name: NODE, valueFrom: {fieldRef: {fieldPath: spec.nodeName}}}
                            - {name: NS, valueFrom: {fieldRef: {fieldPath: metadata.namespace}}}
                            - {name: UID, valueFrom: {fieldRef: {fieldPath: metadata.uid}}}
                            - {name: SA, valueFrom: {fieldRef: {fieldPath: spec.serviceAccountName}}}
                            - {name: APP, valueFrom: {fieldRef: {fieldPath: "metadata.labels['app']"}}}
                            - {name: NOTE, valueFrom: {fieldRef: {fieldPath: "metadata.annotations['note']"}}}
                            - {name: DIR, value: /scratch}
                            - {name: WHERE, value: "$(NODE)-$(NS)"}
                            volumeMounts:
                            - {name: data, mountPath: /data}
                            - {name: scratch, mountPath: /scratch/}
                          volumes:
                          - {name: data, hostPath: {path: /srv/data}}
                          - {name: scratch, emptyDir: {}}
                        """,
                        Pod.class);
        ContainerLaunch launch =
                ContainerLaunch.of(pod, GIVEN, dir.resolve("node"), dir.resolve("pod"));
        Path data = dir.resolve("node/srv/data"), scratch = dir.resolve("pod/volumes/scratch");
        assertThat(launch.args())
                .containsExactly(
                        "--node=n1",
                        "$(UNDEFINED)",
                        "$(NODE)",
                        "--data",
                        data + "/x",
                        "--data=" + data,
                        "/datax",
                        scratch + "/y");
        assertThat(launch.env())
                .containsEntry("KUBERNETES_SERVICE_PORT", "1")
                .containsEntry("NS", "ns")
                .containsEntry("UID", "u-1")
                .containsEntry("SA", "sa")
                .containsEntry("APP", "web")
                .containsEntry("NOTE", "hi")
                .containsEntry("DIR", scratch.toString())
                .containsEntry("WHERE", "n1-ns");
        assertThat(data).isDirectory();
        assertThat(scratch).isDirectory();
    }

    @Test
    void eachDeclaredPortIsAPortOfThisMachineNoOneElseAsksFor() throws Exception {
        Pod pod =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p, namespace: ns}
                        spec:
                          nodeName: n1
                          containers:
                          - name: c
                            args: [--port, "8080", --dns=53, --bind=0.0.0.0:8080, --listen, ":8081", "8082", --count=18080]
                            env:
                            - {name: PORT, value: "8080"}
                            - {name: ADDR, value: "127.0.0.1:8081"}
                            - {name: OTHER, value: "8081x"}
                            ports:
                            - {name: http, containerPort: 8080}
                            - {name: admin, containerPort: 8081, protocol: TCP}
                            - {name: dns, containerPort: 53, protocol: UDP}
                            - {name: dns-tcp, containerPort: 53, protocol: TCP}
                            - {name: https, containerPort: 6443}
                        """,
                        Pod.class);
        ContainerLaunch launch =
                ContainerLaunch.of(
                        pod,
                        GIVEN,
                        dir.resolve("node"),
                        dir.resolve("pod"),
                        ContainerLaunch.ConfigMaps.NONE,
                        ports);
        assertThat(launch.ports())
                .containsExactly(
                        Map.entry(8080, 40001),
                        Map.entry(8081, 40002),
                        Map.entry(53, 40003),
                        Map.entry(6443, 40004));
        assertThat(asked).containsExactly("TCP", "TCP", "UDP", "TCP");
        assertThat(launch.args())
                .as("a port alone, after option= or host:; an undeclared one as written")
                .containsExactly(
                        "--port",
                        "40001",
                        "--dns=40003",
                        "--bind=0.0.0.0:40001",
                        "--listen",
                        ":40002",
                        "8082",
                        "--count=18080");
        assertThat(launch.env())
                .containsEntry("PORT", "40001")
                .containsEntry("ADDR", "127.0.0.1:40002")
                .containsEntry("OTHER", "8081x")
                .as("what the kubelet gives (the API server's port) is not the pod's")
                .containsEntry("KUBERNETES_SERVICE_PORT", "6443");

        pod.getSpec().setHostNetwork(true);
        asked.clear();
        ContainerLaunch onTheNode =
                ContainerLaunch.of(
                        pod,
                        GIVEN,
                        dir.resolve("node"),
                        dir.resolve("pod2"),
                        ContainerLaunch.ConfigMaps.NONE,
                        ports);
        assertThat(onTheNode.ports()).as("hostNetwork: the node's own ports").isEmpty();
        assertThat(onTheNode.args()).startsWith("--port", "8080", "--dns=53");
        assertThat(asked).isEmpty();
    }

    @Test
    void aPortItCannotFindKeepsThePodFromStarting() throws Exception {
        assertThatThrownBy(
                        () ->
                                ContainerLaunch.of(
                                        controllerPod(IMAGE),
                                        GIVEN,
                                        dir.resolve("n"),
                                        dir.resolve("p"),
                                        ContainerLaunch.ConfigMaps.NONE,
                                        protocol -> {
                                            throw new BindException("no ports left");
                                        }))
                .isInstanceOf(ContainerLaunch.CannotStart.class)
                .hasMessage(
                        "container controller: no free TCP port of this machine for containerPort"
                                + " 9099: no ports left");
    }

    /**
     * A secret volume as the kubelet writes it: the Secret's keys as files; an optional one whose
     * Secret does not exist, an empty directory (the controller's serving certificate on a plain
     * cluster).
     */
    @Test
    void secretVolumesHoldTheSecretsKeysAsFiles() throws Exception {
        Pod pod =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p, namespace: ns}
                        spec:
                          nodeName: n1
                          containers:
                          - name: c
                            args: [--cert, /etc/tls/tls.crt, --none, /etc/none/tls.crt]
                            volumeMounts:
                            - {name: tls, mountPath: /etc/tls}
                            - {name: none, mountPath: /etc/none}
                          volumes:
                          - {name: tls, secret: {secretName: serving}}
                          - {name: none, secret: {secretName: absent, optional: true}}
                        """,
                        Pod.class);
        ContainerLaunch.ConfigMaps secrets =
                new ContainerLaunch.ConfigMaps() {
                    @Override
                    public Map<String, byte[]> files(String ns, String name) {
                        return null;
                    }

                    @Override
                    public Map<String, byte[]> secret(String ns, String name) {
                        return ns.equals("ns") && name.equals("serving")
                                ? Map.of(
                                        "tls.crt",
                                        "CERT".getBytes(UTF_8),
                                        "tls.key",
                                        "KEY".getBytes(UTF_8))
                                : null;
                    }
                };
        ContainerLaunch launch =
                ContainerLaunch.of(
                        pod, GIVEN, dir.resolve("node"), dir.resolve("pod"), secrets, ports);
        Path tls = dir.resolve("pod/volumes/tls"), none = dir.resolve("pod/volumes/none");
        assertThat(launch.args())
                .containsExactly(
                        "--cert",
                        tls.resolve("tls.crt").toString(),
                        "--none",
                        none.resolve("tls.crt").toString());
        assertThat(tls.resolve("tls.crt")).hasContent("CERT");
        assertThat(tls.resolve("tls.key")).hasContent("KEY");
        assertThat(none).isEmptyDirectory();
    }

    @Test
    void configMapVolumesHoldTheConfigMapsKeysAsFiles() throws Exception {
        Pod pod =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p, namespace: ns}
                        spec:
                          nodeName: n1
                          containers:
                          - name: c
                            args: [--ca, /etc/ca/service-ca.crt, --picked, /etc/picked/sub/b.txt]
                            volumeMounts:
                            - {name: ca, mountPath: /etc/ca}
                            - {name: picked, mountPath: /etc/picked}
                          volumes:
                          - {name: ca, configMap: {name: service-ca}}
                          - {name: picked, configMap: {name: two, items: [{key: b, path: sub/b.txt}]}}
                        """,
                        Pod.class);
        ContainerLaunch.ConfigMaps cms =
                (ns, name) ->
                        !ns.equals("ns")
                                ? null
                                : switch (name) {
                                    case "service-ca" ->
                                            Map.of("service-ca.crt", "PEM".getBytes(UTF_8));
                                    case "two" ->
                                            Map.of(
                                                    "a",
                                                    "A".getBytes(UTF_8),
                                                    "b",
                                                    "B".getBytes(UTF_8));
                                    default -> null;
                                };
        ContainerLaunch launch =
                ContainerLaunch.of(pod, GIVEN, dir.resolve("node"), dir.resolve("pod"), cms, ports);
        Path ca = dir.resolve("pod/volumes/ca"), picked = dir.resolve("pod/volumes/picked");
        assertThat(launch.args())
                .containsExactly(
                        "--ca",
                        ca.resolve("service-ca.crt").toString(),
                        "--picked",
                        picked.resolve("sub/b.txt").toString());
        assertThat(ca.resolve("service-ca.crt")).hasContent("PEM");
        assertThat(picked.resolve("sub/b.txt")).hasContent("B");
        assertThat(picked.resolve("a")).doesNotExist();

        pod.getSpec().getVolumes().get(1).getConfigMap().getItems().get(0).setKey("c");
        assertThatThrownBy(
                        () ->
                                ContainerLaunch.of(
                                        pod,
                                        GIVEN,
                                        dir.resolve("node"),
                                        dir.resolve("pod2"),
                                        cms,
                                        ports))
                .isInstanceOf(ContainerLaunch.CannotStart.class)
                .hasMessage(
                        "MountVolume.SetUp failed for volume \"picked\" : configmap references"
                                + " non-existent config key: c");
    }

    @Test
    void whatItCannotRunFaithfullyItRefuses() throws Exception {
        Pod command = controllerPod(IMAGE);
        command.getSpec().getContainers().get(0).setCommand(List.of("sh", "-c", "true"));
        assertThatThrownBy(
                        () ->
                                ContainerLaunch.of(
                                        command, GIVEN, dir.resolve("n"), dir.resolve("p")))
                .isInstanceOf(ContainerLaunch.CannotStart.class)
                .hasMessageContaining("sets command [sh, -c, true]");

        Pod secret =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p, namespace: ns}
                        spec:
                          nodeName: n1
                          containers:
                          - name: c
                            env: [{name: T, valueFrom: {secretKeyRef: {name: s, key: k}}}]
                        """,
                        Pod.class);
        assertThatThrownBy(
                        () -> ContainerLaunch.of(secret, GIVEN, dir.resolve("n"), dir.resolve("p")))
                .isInstanceOf(ContainerLaunch.CannotStart.class)
                .hasMessage(
                        "container c: env T comes from a source the demo does not simulate"
                                + " (fieldRef only)");

        Pod configMap =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p, namespace: ns}
                        spec:
                          nodeName: n1
                          containers:
                          - name: c
                            volumeMounts: [{name: cm, mountPath: /etc/cm}]
                          volumes: [{name: cm, configMap: {name: x}}]
                        """,
                        Pod.class);
        assertThatThrownBy(
                        () ->
                                ContainerLaunch.of(
                                        configMap, GIVEN, dir.resolve("n"), dir.resolve("p")))
                .isInstanceOf(ContainerLaunch.CannotStart.class)
                .hasMessage(
                        "MountVolume.SetUp failed for volume \"cm\" : configmap \"x\" not found");

        Pod secretVolume =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p, namespace: ns}
                        spec:
                          nodeName: n1
                          containers:
                          - name: c
                            volumeMounts: [{name: s, mountPath: /etc/s}]
                          volumes: [{name: s, secret: {secretName: x}}]
                        """,
                        Pod.class);
        assertThatThrownBy(
                        () ->
                                ContainerLaunch.of(
                                        secretVolume, GIVEN, dir.resolve("n"), dir.resolve("p")))
                .isInstanceOf(ContainerLaunch.CannotStart.class)
                .hasMessage("MountVolume.SetUp failed for volume \"s\" : secret \"x\" not found");

        Pod claim =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p, namespace: ns}
                        spec:
                          nodeName: n1
                          containers:
                          - name: c
                            volumeMounts: [{name: v, mountPath: /etc/v}]
                          volumes: [{name: v, persistentVolumeClaim: {claimName: x}}]
                        """,
                        Pod.class);
        assertThatThrownBy(
                        () -> ContainerLaunch.of(claim, GIVEN, dir.resolve("n"), dir.resolve("p")))
                .isInstanceOf(ContainerLaunch.CannotStart.class)
                .hasMessage(
                        "volume v: only hostPath, emptyDir, configMap and secret volumes are"
                                + " simulated");

        Pod existing =
                Mappers.YAML.readValue(
                        """
                        metadata: {name: p, namespace: ns}
                        spec:
                          nodeName: n1
                          containers:
                          - name: c
                            volumeMounts: [{name: d, mountPath: /d}]
                          volumes: [{name: d, hostPath: {path: /absent, type: Directory}}]
                        """,
                        Pod.class);
        assertThatThrownBy(
                        () ->
                                ContainerLaunch.of(
                                        existing, GIVEN, dir.resolve("n"), dir.resolve("p")))
                .isInstanceOf(ContainerLaunch.CannotStart.class)
                .hasMessage("hostPath type check failed: /absent is not a directory");
        assertThat(Files.exists(dir.resolve("n/absent"))).isFalse();
    }
}
