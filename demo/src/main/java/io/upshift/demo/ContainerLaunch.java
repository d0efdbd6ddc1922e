package io.upshift.demo;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMapVolumeSource;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HostPathVolumeSource;
import io.fabric8.kubernetes.api.model.KeyToPath;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.SecretVolumeSource;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.net.DatagramSocket;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the demo's kubelet starts for a pod's container: the container's own {@code args} and {@code
 * env}, resolved as a kubelet resolves them ({@code $(VAR)} references, {@code valueFrom.fieldRef}
 * from the pod: its name, namespace, node, labels...), over what a kubelet adds itself (given: the
 * API server's address and credentials, the image's environment); its volumes made on the node.
 * Nothing else: a container that sets {@code command}, a second container, or a volume or value
 * source the demo does not simulate is refused, as a kubelet refuses what it cannot run (the pod
 * does not start), never supplied from elsewhere.
 *
 * <p>Mounts. The process runs on this machine, in no mount namespace of its own, so it cannot see a
 * volume at its {@code mountPath}. A simulated node's filesystem is a directory of this machine,
 * its node root: hostPath {@code X} is {@code <node root>/X} (made when its type asks for it), an
 * emptyDir a directory of the pod's, a configMap (or secret) one of the pod's holding the
 * ConfigMap's (Secret's) keys as files (read from the API server when the pod starts, not kept in
 * step; an optional one that does not exist is an empty directory). The kubelet tells the process
 * where its volumes are through the only paths the pod spec gives it: each argument and environment
 * value that names a path at or under a {@code mountPath} {@code M} (alone, or after {@code
 * --option=}) names the volume's directory instead. So the controller's {@code --payload-cache
 * /var/lib/upshift/payloads}, mounted from hostPath {@code /var/lib/upshift/payloads}, reaches it
 * as {@code <node root>/var/lib/upshift/payloads}: the directory every pod of that node mounting
 * that hostPath sees, and the path its payload Jobs then name. Paths the process makes up itself
 * are this machine's, and {@code readOnly} is not enforced.
 *
 * <p>Ports. The process runs in no network namespace of its own either, so the ports it listens on
 * are this machine's, shared with every other process here: another demo's or test's controller, a
 * pod still stopping. A pod of a real cluster has its own network namespace, where its container's
 * ports are always free; so, as for mounts, each {@code containerPort} the container declares is
 * given a free port of this machine, and each argument and environment value that is that number
 * (alone, or after {@code --option=} or {@code host:}) names that port instead: the controller's
 * {@code --metrics-port 9099} and {@code --health-port 9098} reach it as two ports no one holds. A
 * port the container listens on without declaring it is this machine's, as is every port of a pod
 * with {@code hostNetwork} (the node's network: all the demo's nodes are this machine). {@code
 * hostPort} is not simulated.
 *
 * @param args the container's args, after the image's entry point
 * @param env the process's whole environment
 * @param mounts each mountPath and the directory of this machine it stands for
 * @param ports each containerPort and the port of this machine it stands for
 */
public record ContainerLaunch(
        String container,
        List<String> args,
        Map<String, String> env,
        Map<String, Path> mounts,
        Map<Integer, Integer> ports) {

    /**
     * The pod cannot start, and why, as a kubelet reports it (a container waiting with this reason
     * and message).
     */
    public static final class CannotStart extends Exception {
        private final String reason;

        CannotStart(String reason, String message) {
            super(message);
            this.reason = reason;
        }

        public String reason() {
            return reason;
        }
    }

    /**
     * The ConfigMaps a kubelet reads for configMap volumes: {@code data} and {@code binaryData}
     * (base64) by key; null for one that does not exist. And the Secrets it reads for secret
     * volumes, their {@code data} by key (none exists unless {@link #secret} says otherwise).
     */
    @FunctionalInterface
    public interface ConfigMaps {
        /** No ConfigMap exists, nor Secret. */
        ConfigMaps NONE = (namespace, name) -> null;

        Map<String, byte[]> files(String namespace, String name);

        /** A Secret's data by key; null for one that does not exist. */
        default Map<String, byte[]> secret(String namespace, String name) {
            return null;
        }
    }

    /** Where the kubelet finds ports of this machine for a pod's containerPorts. */
    @FunctionalInterface
    public interface HostPorts {
        /**
         * A port the operating system picks for a socket bound to port 0: free at that moment, and,
         * unlike 9099, a number no other program asks for by name.
         */
        HostPorts FREE =
                protocol -> {
                    if ("UDP".equals(protocol)) {
                        try (DatagramSocket s = new DatagramSocket(0)) {
                            return s.getLocalPort();
                        }
                    }
                    try (ServerSocket s = new ServerSocket(0)) {
                        return s.getLocalPort();
                    }
                };

        /**
         * A port of this machine that no process listens on, for {@code protocol} (TCP, UDP...).
         */
        int free(String protocol) throws IOException;
    }

    private static final Pattern FIELD_KEY =
            Pattern.compile("metadata\\.(labels|annotations)\\['([^']+)'\\]");

    /** A port number, alone or at the end of {@code --option=}, {@code host:}. */
    private static final Pattern PORT = Pattern.compile("(|.*[=:])([0-9]{1,5})");

    /**
     * @param pod the pod, scheduled ({@code spec.nodeName} set), with its metadata and status as
     *     the API would hold them
     * @param given what the kubelet and the image give every container, before the container's own
     *     env (which wins)
     * @param node the node root: hostPath volumes are under it
     * @param podDir the pod's own directory (its emptyDir volumes)
     */
    public static ContainerLaunch of(Pod pod, Map<String, String> given, Path node, Path podDir)
            throws CannotStart {
        return of(pod, given, node, podDir, ConfigMaps.NONE, HostPorts.FREE);
    }

    /**
     * As {@link #of(Pod, Map, Path, Path)}, configMap volumes filled from {@code configMaps}, the
     * containerPorts given ports of this machine by {@code hostPorts}.
     */
    public static ContainerLaunch of(
            Pod pod,
            Map<String, String> given,
            Path node,
            Path podDir,
            ConfigMaps configMaps,
            HostPorts hostPorts)
            throws CannotStart {
        List<Container> containers = pod.getSpec().getContainers();
        if (containers.size() != 1) {
            throw new CannotStart(
                    "CreateContainerError",
                    "the demo's kubelet runs pods of one container; this one has "
                            + containers.size());
        }
        Container c = containers.get(0);
        if (c.getCommand() != null && !c.getCommand().isEmpty()) {
            throw new CannotStart(
                    "CreateContainerError",
                    "container "
                            + c.getName()
                            + " sets command "
                            + c.getCommand()
                            + ": the demo's kubelet runs the image's entry point (upshift) with the"
                            + " container's args");
        }
        if (c.getEnvFrom() != null && !c.getEnvFrom().isEmpty()) {
            throw new CannotStart(
                    "CreateContainerConfigError",
                    "container " + c.getName() + ": envFrom is not simulated");
        }
        Map<String, Path> mounts = mounts(pod, c, node, podDir, configMaps);
        Map<Integer, Integer> ports = ports(pod, c, hostPorts);
        JsonNode podJson = Mappers.JSON.valueToTree(pod);
        Map<String, String> env = new LinkedHashMap<>(given);
        for (EnvVar e : c.getEnv() == null ? List.<EnvVar>of() : c.getEnv()) {
            String value;
            if (e.getValueFrom() == null) {
                value =
                        translate(
                                expand(e.getValue() == null ? "" : e.getValue(), env),
                                mounts,
                                ports);
            } else if (e.getValueFrom().getFieldRef() != null) {
                value =
                        field(
                                podJson,
                                e.getValueFrom().getFieldRef().getFieldPath(),
                                c.getName(),
                                e.getName());
            } else {
                throw new CannotStart(
                        "CreateContainerConfigError",
                        "container "
                                + c.getName()
                                + ": env "
                                + e.getName()
                                + " comes from a source the demo does not simulate (fieldRef"
                                + " only)");
            }
            env.put(e.getName(), value);
        }
        List<String> args = new ArrayList<>();
        for (String a : c.getArgs() == null ? List.<String>of() : c.getArgs())
            args.add(translate(expand(a, env), mounts, ports));
        return new ContainerLaunch(c.getName(), List.copyOf(args), env, mounts, ports);
    }

    /**
     * A free port of this machine for each port the container declares, by containerPort; none for
     * a pod on the node's network.
     */
    private static Map<Integer, Integer> ports(Pod pod, Container c, HostPorts hostPorts)
            throws CannotStart {
        Map<Integer, Integer> out = new LinkedHashMap<>();
        if (Boolean.TRUE.equals(pod.getSpec().getHostNetwork())) return out;
        for (ContainerPort p : c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts()) {
            Integer port = p.getContainerPort();
            if (port == null || out.containsKey(port)) continue;
            String protocol = p.getProtocol() == null ? "TCP" : p.getProtocol();
            try {
                out.put(port, hostPorts.free(protocol));
            } catch (IOException e) {
                throw new CannotStart(
                        "CreateContainerError",
                        "container "
                                + c.getName()
                                + ": no free "
                                + protocol
                                + " port of this machine for containerPort "
                                + port
                                + ": "
                                + e.getMessage());
            }
        }
        return out;
    }

    /**
     * The volumes the container mounts, made on the node (or in the pod's directory), by mountPath.
     */
    private static Map<String, Path> mounts(
            Pod pod, Container c, Path node, Path podDir, ConfigMaps configMaps)
            throws CannotStart {
        Map<String, Volume> volumes = new LinkedHashMap<>();
        for (Volume v :
                pod.getSpec().getVolumes() == null ? List.<Volume>of() : pod.getSpec().getVolumes())
            volumes.put(v.getName(), v);
        Map<String, Path> out = new LinkedHashMap<>();
        for (VolumeMount m :
                c.getVolumeMounts() == null ? List.<VolumeMount>of() : c.getVolumeMounts()) {
            Volume v = volumes.get(m.getName());
            if (v == null)
                throw new CannotStart(
                        "CreateContainerConfigError",
                        "container "
                                + c.getName()
                                + " mounts volume "
                                + m.getName()
                                + ", which the pod does not have");
            Path dir;
            if (v.getHostPath() != null) {
                dir = hostPath(node, v.getHostPath());
            } else if (v.getEmptyDir() != null) {
                dir = podDir.resolve("volumes").resolve(v.getName());
                createDirectories(dir);
            } else if (v.getConfigMap() != null) {
                dir = podDir.resolve("volumes").resolve(v.getName());
                ConfigMapVolumeSource source = v.getConfigMap();
                keyedFiles(
                        dir,
                        v.getName(),
                        "configmap",
                        source.getName(),
                        Boolean.TRUE.equals(source.getOptional()),
                        source.getItems(),
                        configMaps.files(pod.getMetadata().getNamespace(), source.getName()));
            } else if (v.getSecret() != null) {
                dir = podDir.resolve("volumes").resolve(v.getName());
                SecretVolumeSource source = v.getSecret();
                keyedFiles(
                        dir,
                        v.getName(),
                        "secret",
                        source.getSecretName(),
                        Boolean.TRUE.equals(source.getOptional()),
                        source.getItems(),
                        configMaps.secret(
                                pod.getMetadata().getNamespace(), source.getSecretName()));
            } else {
                throw new CannotStart(
                        "CreateContainerConfigError",
                        "volume "
                                + v.getName()
                                + ": only hostPath, emptyDir, configMap and secret volumes are"
                                + " simulated");
            }
            if (m.getSubPath() != null && !m.getSubPath().isEmpty()) {
                dir = dir.resolve(m.getSubPath());
                createDirectories(dir);
            }
            out.put(m.getMountPath(), dir);
        }
        return out;
    }

    /**
     * A configMap or secret volume as the kubelet writes it: each key a file (or only the {@code
     * items} asked for, at their paths); a ConfigMap, Secret or item key that does not exist leaves
     * an optional volume without it and keeps the pod from starting otherwise, in the kubelet's
     * words.
     *
     * @param kind {@code configmap} or {@code secret}
     */
    private static void keyedFiles(
            Path dir,
            String volume,
            String kind,
            String name,
            boolean optional,
            List<KeyToPath> items,
            Map<String, byte[]> files)
            throws CannotStart {
        createDirectories(dir);
        String setUp = "MountVolume.SetUp failed for volume \"" + volume + "\" : ";
        if (files == null) {
            if (optional) return;
            throw new CannotStart(
                    "ContainerCreating", setUp + kind + " \"" + name + "\" not found");
        }
        Map<String, String> paths = new LinkedHashMap<>();
        if (items == null || items.isEmpty()) {
            files.keySet().forEach(k -> paths.put(k, k));
        } else {
            for (KeyToPath item : items) {
                if (!files.containsKey(item.getKey())) {
                    if (optional) continue;
                    throw new CannotStart(
                            "ContainerCreating",
                            setUp
                                    + kind
                                    + (kind.equals("secret")
                                            ? " references non-existent secret key: "
                                            : " references non-existent config key: ")
                                    + item.getKey());
                }
                paths.put(item.getKey(), item.getPath());
            }
        }
        for (Map.Entry<String, String> p : paths.entrySet()) {
            Path file = dir.resolve(p.getValue()).normalize();
            if (!file.startsWith(dir))
                throw new CannotStart(
                        "ContainerCreating",
                        setUp + "item path " + p.getValue() + " leaves the volume");
            try {
                Files.createDirectories(file.getParent());
                Files.write(file, files.get(p.getKey()));
            } catch (IOException e) {
                throw new CannotStart(
                        "ContainerCreating",
                        setUp + "cannot write " + file + ": " + e.getMessage());
            }
        }
    }

    /**
     * Where hostPath {@code X} of the node is on this machine, checked or made as its type says.
     */
    private static Path hostPath(Path node, HostPathVolumeSource source) throws CannotStart {
        Path dir = onNode(node, source.getPath());
        String type = source.getType() == null ? "" : source.getType();
        switch (type) {
            case "", "DirectoryOrCreate" -> createDirectories(dir);
            case "Directory" -> {
                if (!Files.isDirectory(dir))
                    throw new CannotStart(
                            "ContainerCreating",
                            "hostPath type check failed: "
                                    + source.getPath()
                                    + " is not a directory");
            }
            case "File" -> {
                if (!Files.isRegularFile(dir))
                    throw new CannotStart(
                            "ContainerCreating",
                            "hostPath type check failed: " + source.getPath() + " is not a file");
            }
            default ->
                    throw new CannotStart(
                            "CreateContainerConfigError",
                            "hostPath type " + type + " is not simulated");
        }
        return dir;
    }

    /** Where path {@code hostPath} of the node whose root is {@code node} is on this machine. */
    public static Path onNode(Path node, String hostPath) {
        Path p = node.resolve(hostPath.replaceFirst("^/+", "")).normalize();
        if (!p.startsWith(node))
            throw new IllegalArgumentException("hostPath " + hostPath + " leaves the node");
        return p;
    }

    private static void createDirectories(Path dir) throws CannotStart {
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new CannotStart(
                    "ContainerCreating", "cannot make " + dir + ": " + e.getMessage());
        }
    }

    /** A downward-API field of the pod, as the kubelet reads it. */
    private static String field(JsonNode pod, String path, String container, String name)
            throws CannotStart {
        Matcher key = FIELD_KEY.matcher(path);
        JsonNode value =
                key.matches()
                        ? pod.path("metadata").path(key.group(1)).path(key.group(2))
                        : pod.at("/" + path.replace('.', '/'));
        if (!value.isValueNode()) {
            throw new CannotStart(
                    "CreateContainerConfigError",
                    "container "
                            + container
                            + ": env "
                            + name
                            + ": field "
                            + path
                            + " of the pod is not set");
        }
        return value.asText();
    }

    /**
     * Kubernetes' {@code $(VAR)} expansion: a reference to a variable defined before is replaced by
     * its value, one to an undefined variable is left as written, {@code $$} is a literal {@code
     * $}.
     */
    static String expand(String in, Map<String, String> vars) {
        StringBuilder out = new StringBuilder(in.length());
        int i = 0;
        while (i < in.length()) {
            char ch = in.charAt(i);
            if (ch == '$' && i + 1 < in.length()) {
                char next = in.charAt(i + 1);
                if (next == '$') {
                    out.append('$');
                    i += 2;
                    continue;
                }
                int close = next == '(' ? in.indexOf(')', i + 2) : -1;
                if (close > 0) {
                    String name = in.substring(i + 2, close);
                    out.append(
                            vars.containsKey(name) ? vars.get(name) : in.substring(i, close + 1));
                    i = close + 1;
                    continue;
                }
            }
            out.append(ch);
            i++;
        }
        return out.toString();
    }

    /**
     * {@code value} with a path under a mountPath naming the volume's directory instead, or a
     * containerPort the port of this machine given to it.
     */
    static String translate(String value, Map<String, Path> mounts, Map<Integer, Integer> ports) {
        Matcher port = PORT.matcher(value);
        Integer to = port.matches() ? ports.get(Integer.parseInt(port.group(2))) : null;
        return to != null ? port.group(1) + to : translate(value, mounts);
    }

    /**
     * {@code value} with a path under a mountPath (alone, or after {@code option=}) naming the
     * volume's directory instead.
     */
    static String translate(String value, Map<String, Path> mounts) {
        int eq = value.startsWith("/") ? -1 : value.indexOf('=');
        String prefix = eq < 0 ? "" : value.substring(0, eq + 1);
        String path = value.substring(prefix.length());
        String best = null;
        for (String m : mounts.keySet()) {
            String mount = m.endsWith("/") && m.length() > 1 ? m.substring(0, m.length() - 1) : m;
            if ((path.equals(mount) || path.startsWith(mount + "/"))
                    && (best == null || mount.length() > best.length())) best = mount;
        }
        if (best == null) return value;
        Path dir = mounts.containsKey(best) ? mounts.get(best) : mounts.get(best + "/");
        return prefix + dir + path.substring(best.length());
    }
}
