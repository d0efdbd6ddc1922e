package io.upshift.status.snapshot;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfig;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigNode;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.upshift.api.files.BoundedFiles;
import io.upshift.status.model.Alert;
import io.upshift.status.model.ClusterState;
import io.upshift.status.model.Times;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/** A cluster read from files instead of an API server. */
public final class Snapshot {

    /** The largest snapshot file read (a dump of every pod of a large cluster fits). */
    public static final long FILE_LIMIT = 256L << 20;

    public static final String MCO_NAMESPACE = "openshift-machine-config-operator";
    public static final String MCO_NAME = "machine-config-operator";
    private static final String CV_SUFFIX = "-cv.yaml";

    private Snapshot() {}

    /**
     * A directory of dumps ({@code *.yaml}, {@code *.yml}, {@code *.json}), one per kind or mixed;
     * an {@code alerts.json} in it holds alerts.
     *
     * @param dir the directory as the user gave it; messages name files under it
     */
    public static ClusterState fromDirectory(String dir) {
        Contents contents = read(dir);
        return assemble(dir, contents.objects(), contents.alerts());
    }

    /**
     * What a snapshot directory holds: every object of every dump, in file order, and the alerts of
     * its {@code alerts.json} (empty when it has none).
     */
    public record Contents(List<HasMetadata> objects, Optional<List<Alert>> alerts) {
        public Contents {
            objects = List.copyOf(objects);
        }

        /** The objects of {@code type}, in file order. */
        public <T> List<T> of(Class<T> type) {
            return only(objects, type);
        }
    }

    /**
     * Reads a snapshot directory as {@link #fromDirectory} does, keeping every object it holds.
     *
     * @param dir the directory as the user gave it; messages name files under it
     */
    public static Contents read(String dir) {
        Path root = Path.of(dir);
        if (!Files.isDirectory(root)) {
            throw new SnapshotException(dir + ": not a directory");
        }
        List<Path> files;
        try (Stream<Path> list = Files.list(root)) {
            files = list.filter(p -> p.toString().matches(".*\\.(ya?ml|json)$")).sorted().toList();
        } catch (IOException e) {
            throw new SnapshotException(dir + ": cannot list: " + e.getMessage(), e);
        }
        List<HasMetadata> objects = new ArrayList<>();
        Optional<List<Alert>> alerts = Optional.empty();
        for (Path file : files) {
            if (file.getFileName().toString().equals("alerts.json")) {
                alerts = Optional.of(AlertsFile.parse(file.toString(), bytes(file)));
            } else {
                objects.addAll(ResourceFiles.read(file.toString(), bytes(file)));
            }
        }
        return new Contents(objects, alerts);
    }

    /**
     * oc's {@code --mock-clusterversion=DIR/<case>-cv.yaml}: the siblings {@code -co.yaml}, {@code
     * -mcp.yaml}, {@code -mc.yaml}, {@code -node.yaml}, and optionally {@code -alerts.json} and
     * {@code -mco-deployment.yaml}.
     */
    public static ClusterState fromMockClusterVersion(String cvPath) {
        List<HasMetadata> cvFile = ResourceFiles.read(cvPath, bytes(cvPath));
        List<ClusterVersion> cvs = only(cvFile, ClusterVersion.class);
        if (cvs.isEmpty()) {
            throw new SnapshotException(cvPath + ": holds no ClusterVersion");
        }
        List<HasMetadata> objects = new ArrayList<>(List.of(cvs.get(0)));
        for (String suffix : List.of("-co.yaml", "-mcp.yaml", "-mc.yaml", "-node.yaml")) {
            String sibling = sibling(cvPath, suffix);
            objects.addAll(ResourceFiles.read(sibling, bytes(sibling)));
        }
        String deployment = sibling(cvPath, "-mco-deployment.yaml");
        if (Files.exists(Path.of(deployment))) {
            objects.addAll(ResourceFiles.read(deployment, bytes(deployment)));
        }
        String alertsPath = sibling(cvPath, "-alerts.json");
        Optional<List<Alert>> alerts =
                Files.exists(Path.of(alertsPath))
                        ? Optional.of(AlertsFile.parse(alertsPath, bytes(alertsPath)))
                        : Optional.empty();
        return assemble(cvPath, objects, alerts);
    }

    private static String sibling(String cvPath, String suffix) {
        if (!cvPath.contains(CV_SUFFIX)) {
            throw new SnapshotException(
                    cvPath + ": --mock-clusterversion must name a file ending in " + CV_SUFFIX);
        }
        return cvPath.replaceFirst(Pattern.quote(CV_SUFFIX), Matcher.quoteReplacement(suffix));
    }

    /**
     * Builds the cluster from loose objects; the ClusterVersion named "version" wins over others.
     */
    public static ClusterState assemble(
            String where, List<HasMetadata> objects, Optional<List<Alert>> alerts) {
        List<ClusterVersion> cvs = only(objects, ClusterVersion.class);
        if (cvs.isEmpty()) {
            throw new SnapshotException(
                    where
                            + ": no ClusterVersion found (the cluster has no ClusterVersion named"
                            + " \"version\")");
        }
        ClusterVersion cv =
                cvs.stream()
                        .filter(c -> "version".equals(c.getMetadata().getName()))
                        .findFirst()
                        .orElse(cvs.get(0));
        String mcoImage =
                only(objects, Deployment.class).stream()
                        .filter(
                                d ->
                                        MCO_NAME.equals(d.getMetadata().getName())
                                                && (d.getMetadata().getNamespace() == null
                                                        || MCO_NAMESPACE.equals(
                                                                d.getMetadata().getNamespace())))
                        .findFirst()
                        .map(Snapshot::mcoImage)
                        .orElse("");
        return new ClusterState(
                cv,
                only(objects, ClusterOperator.class),
                only(objects, MachineConfigPool.class),
                only(objects, MachineConfig.class),
                only(objects, Node.class),
                mcoImage,
                alerts,
                List.of(),
                only(objects, MachineConfigNode.class));
    }

    /** The image of the machine-config-operator container, or "" when the Deployment has none. */
    public static String mcoImage(Deployment d) {
        if (d == null
                || d.getSpec() == null
                || d.getSpec().getTemplate() == null
                || d.getSpec().getTemplate().getSpec() == null) {
            return "";
        }
        for (Container c : d.getSpec().getTemplate().getSpec().getContainers()) {
            if (MCO_NAME.equals(c.getName())) {
                return c.getImage() == null ? "" : c.getImage();
            }
        }
        return "";
    }

    /**
     * The moment a recorded snapshot is replayed at, as oc replays its examples: the latest
     * condition transition of the ClusterVersion and the ClusterOperators, plus 368975ns so that
     * rounding is exercised.
     */
    public static Instant replayTime(ClusterState state) {
        Instant now = Times.ZERO;
        List<ClusterOperatorStatusCondition> conditions = new ArrayList<>();
        if (state.clusterVersion().getStatus().getConditions() != null) {
            conditions.addAll(state.clusterVersion().getStatus().getConditions());
        }
        for (ClusterOperator co : state.operators()) {
            if (co.getStatus() != null && co.getStatus().getConditions() != null) {
                conditions.addAll(co.getStatus().getConditions());
            }
        }
        for (var c : conditions) {
            Instant t = Times.parse(c.getLastTransitionTime());
            if (t != null && t.isAfter(now)) {
                now = t.plusNanos(368_975);
            }
        }
        return now;
    }

    private static <T> List<T> only(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    private static byte[] bytes(Path file) {
        return bytes(file.toString());
    }

    private static byte[] bytes(String path) {
        try {
            return BoundedFiles.read(Path.of(path), path, FILE_LIMIT, "a snapshot file");
        } catch (BoundedFiles.Refused e) {
            throw new SnapshotException(e.getMessage(), e);
        } catch (NoSuchFileException e) {
            throw new SnapshotException(path + ": no such file", e);
        } catch (IOException e) {
            throw new SnapshotException(path + ": cannot read: " + e.getMessage(), e);
        }
    }
}
