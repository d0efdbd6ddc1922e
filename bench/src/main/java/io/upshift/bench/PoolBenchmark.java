package io.upshift.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.NodeBuilder;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPool;
import io.fabric8.openshift.api.model.machineconfiguration.v1.MachineConfigPoolBuilder;
import io.upshift.pools.model.MaxUnavailable;
import io.upshift.pools.model.NodeAnnotations;
import io.upshift.pools.model.NodeSelection;
import io.upshift.pools.model.PoolMembers;
import io.upshift.pools.model.PoolNode;
import io.upshift.pools.model.PoolProgress;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * The pool controller's work per reconcile pass on one pool, from its caches: assign nodes to
 * pools, view each node, pick the nodes to start, compute the pool's status. API writes are not
 * included (only picked nodes and a changed status are written). Half the nodes are mid-rollout, so
 * every branch runs.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PoolBenchmark {
    @Param({"5000"})
    int nodes;

    List<MachineConfigPool> pools;
    List<Node> all;

    @Setup
    public void setup() {
        pools =
                List.of(
                        new MachineConfigPoolBuilder()
                                .withNewMetadata()
                                .withName("worker")
                                .endMetadata()
                                .withNewSpec()
                                .withNewNodeSelector()
                                .addToMatchLabels("node-role.kubernetes.io/worker", "")
                                .endNodeSelector()
                                .endSpec()
                                .build());
        all = new ArrayList<>();
        for (int i = 0; i < nodes; i++) {
            String current = i % 2 == 0 ? "rendered-worker-new" : "rendered-worker-old";
            String desired = i % 10 == 1 ? "rendered-worker-new" : current;
            all.add(
                    new NodeBuilder()
                            .withNewMetadata()
                            .withName("worker-" + i)
                            .addToLabels("node-role.kubernetes.io/worker", "")
                            .addToLabels(PoolMembers.ZONE_LABEL, "zone-" + (i % 3))
                            .withCreationTimestamp(
                                    Instant.ofEpochSecond(1_700_000_000L + i).toString())
                            .addToAnnotations(NodeAnnotations.CURRENT_CONFIG, current)
                            .addToAnnotations(NodeAnnotations.DESIRED_CONFIG, desired)
                            .addToAnnotations(
                                    NodeAnnotations.STATE,
                                    desired.equals(current) ? "Done" : "Working")
                            .endMetadata()
                            .withNewStatus()
                            .addNewCondition()
                            .withType("Ready")
                            .withStatus("True")
                            .endCondition()
                            .endStatus()
                            .build());
        }
    }

    @Benchmark
    public Object reconcilePass() {
        List<Node> members = PoolMembers.assign(pools, all).get("worker");
        List<PoolNode> view = new ArrayList<>(members.size());
        for (Node n : members) view.add(PoolMembers.view(n, ""));
        int max = MaxUnavailable.resolve("10%", view.size());
        List<PoolNode> picked = NodeSelection.pick(view, "rendered-worker-new", max, false);
        return new PoolProgress("worker", "rendered-worker-new", view, false, null, null, null)
                        .status(null, 1, Instant.EPOCH)
                        .getMachineCount()
                + picked.size();
    }
}
