package io.upshift.rehearsal.model;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * An update laid out in time from the moment it is asked for: the control plane run-level by
 * run-level, then each pool node by node. A bar that never ends stalls there; what follows it is
 * not reached.
 *
 * @param runLevels the control plane's run-levels reached, in order
 * @param pools the pools, in the order the cluster lists them
 * @param controlPlaneEnd when the control plane would be done (the machine-config run-level waits
 *     for the control-plane pool); null when it stalls
 * @param end when the last node would be done, or the control plane when no node rolls; null when
 *     anything stalls
 * @param basis how the times were found ("planned from ...", "simulated at 30× from ...")
 * @param waits the waits for windows and soak times included, one phrase each ({@link
 *     TimelineWaits})
 */
@JsonInclude(JsonInclude.Include.NON_NULL)
public record Timeline(
        List<Bar> runLevels,
        List<Pool> pools,
        Duration controlPlaneEnd,
        Duration end,
        String basis,
        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<String> waits) {
    public Timeline {
        runLevels = List.copyOf(runLevels);
        pools = List.copyOf(pools);
        waits = List.copyOf(waits);
    }

    /** With no waits for windows or soak times included. */
    public Timeline(
            List<Bar> runLevels,
            List<Pool> pools,
            Duration controlPlaneEnd,
            Duration end,
            String basis) {
        this(runLevels, pools, controlPlaneEnd, end, basis, List.of());
    }

    /** One stretch of work: a run-level or a node's update; {@code end} null when it never ends. */
    @JsonInclude(JsonInclude.Include.NON_EMPTY)
    public record Bar(String name, Duration start, Duration end, String note) {
        @JsonIgnore
        public boolean stalled() {
            return end == null;
        }
    }

    /**
     * A pool's rollout: its {@code members} nodes at most {@code lanes} at a time from {@code
     * start}, a bar for each node started; {@code end} null when it does not finish (a node stalls,
     * or the pool is paused or not rolled: then {@code start} is null too and {@code note} says
     * why).
     */
    @JsonInclude(JsonInclude.Include.NON_NULL)
    public record Pool(
            String name,
            int members,
            int lanes,
            Duration start,
            Duration end,
            List<Bar> nodes,
            String note) {
        public Pool {
            nodes = List.copyOf(nodes);
        }
    }

    /** The last node to be done, if any node is. */
    public Optional<Bar> lastNode() {
        return pools.stream()
                .flatMap(p -> p.nodes().stream())
                .filter(b -> b.end() != null)
                .max(Comparator.comparing(Bar::end));
    }

    /**
     * The latest moment any bar starts or ends: how wide a drawing must be (stalled bars are drawn
     * to it).
     */
    public Duration horizon() {
        return Stream.concat(runLevels.stream(), pools.stream().flatMap(p -> p.nodes().stream()))
                .flatMap(b -> Stream.of(b.start(), b.end()))
                .filter(d -> d != null)
                .max(Duration::compareTo)
                .orElse(Duration.ZERO);
    }
}
