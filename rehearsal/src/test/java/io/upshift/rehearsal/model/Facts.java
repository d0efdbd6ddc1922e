package io.upshift.rehearsal.model;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.upshift.clusterversion.model.AdminGates;
import io.upshift.rehearsal.synthetic.LevelCluster;
import io.upshift.status.snapshot.Snapshot;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

/** The facts of a {@link LevelCluster}, changed as a test needs. */
public final class Facts {
    public static final String FROM_IMAGE = "quay.io/example/release@sha256:" + "a".repeat(64);
    public static final String TO_IMAGE = "quay.io/example/release@sha256:" + "b".repeat(64);
    static final Instant AT = Instant.parse("2026-11-20T10:00:00Z");

    private Facts() {}

    public static ClusterFacts of(int workers) {
        return of(workers, o -> o);
    }

    /** The cluster's objects, each passed through {@code change} (null drops it). */
    static ClusterFacts of(int workers, UnaryOperator<HasMetadata> change) {
        List<HasMetadata> objects =
                new LevelCluster(workers, FROM_IMAGE, TO_IMAGE, AT)
                        .objects().stream().map(change).filter(o -> o != null).toList();
        var state = Snapshot.assemble("test", objects, Optional.empty());
        List<ConfigMap> maps = only(objects, ConfigMap.class);
        return new ClusterFacts(
                state,
                new AdminGates.ConfigMaps(data(maps, "admin-gates"), data(maps, "admin-acks")),
                (JsonNode) null,
                only(objects, PodDisruptionBudget.class),
                only(objects, Pod.class),
                List.of(),
                List.of());
    }

    public static Target target(String version) {
        return new Target(
                version,
                TO_IMAGE,
                "among the cluster's available updates",
                LevelCluster.LEVELS,
                "its payload",
                Target.Verification.verified("signed"));
    }

    private static Map<String, String> data(List<ConfigMap> maps, String name) {
        return maps.stream()
                .filter(m -> m.getMetadata().getName().equals(name))
                .findFirst()
                .map(m -> m.getData() == null ? Map.<String, String>of() : m.getData())
                .orElse(null);
    }

    private static <T> List<T> only(List<HasMetadata> objects, Class<T> type) {
        return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }
}
