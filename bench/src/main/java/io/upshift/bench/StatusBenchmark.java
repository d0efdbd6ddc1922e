package io.upshift.bench;

import io.upshift.status.model.ClusterState;
import io.upshift.status.model.UpdateAssessment;
import io.upshift.status.render.Details;
import io.upshift.status.render.StatusRenderer;
import io.upshift.status.synthetic.SyntheticCluster;
import java.time.Instant;
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

/** Assessment plus rendering of a cluster mid-update: 20 pools, 60 operators, N worker nodes. */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx2g", "-XX:ActiveProcessorCount=1"})
public class StatusBenchmark {
    private static final Instant AT = Instant.parse("2026-11-20T10:00:00Z");

    @Param({"500", "5000", "50000"})
    public int nodes;

    private ClusterState state;

    @Setup
    public void setup() {
        state = new SyntheticCluster(nodes, 20, 60, 1.0, AT).state();
    }

    @Benchmark
    public String assessAndRender() {
        return StatusRenderer.render(UpdateAssessment.assess(state, AT, AT), AT, Details.all);
    }
}
