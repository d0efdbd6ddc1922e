package io.upshift.bench;

import io.upshift.base.version.SemVer;
import io.upshift.graph.model.Graph;
import io.upshift.graph.model.GraphJson;
import io.upshift.graph.updates.GraphUpdates;
import io.upshift.graph.updates.RetrievedUpdates;
import java.nio.file.Files;
import java.nio.file.Path;
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
 * The update client's work per refresh: parse a served graph and compute the cluster's updates. Run
 * from the repository root.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g", "-XX:ActiveProcessorCount=1"})
public class GraphClientBenchmark {

    @Param(
            "../shared/fixtures/cincinnati-graphs/134475077ed4eeaedf3c339f12915b9cdaf7d194_stable-4.7_amd64_v1.json")
    public String graph;

    @Param("4.7.2")
    public String current;

    byte[] body;

    @Setup
    public void read() throws Exception {
        body = Files.readAllBytes(Path.of(graph));
    }

    @Benchmark
    public RetrievedUpdates parseAndComputeUpdates() throws Exception {
        Graph g = GraphJson.read(body, 64 << 20);
        return GraphUpdates.compute(g, SemVer.parse(current), "stable-4.7", w -> {});
    }
}
