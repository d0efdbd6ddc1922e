package io.upshift.bench;

import io.upshift.api.json.Mappers;
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
 * Reading one YAML document of {@code megabytes} with the mapper every module uses: one long scalar
 * (what cost SnakeYAML's own reader quadratic time), or a mapping of short entries. Divide by the
 * size for the time per MB: linear reading keeps it the same at every size.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx2g", "-XX:ActiveProcessorCount=1"})
public class YamlBenchmark {

    @Param({"1", "4", "16"})
    int megabytes;

    @Param({"scalar", "mapping"})
    String shape;

    String yaml;

    @Setup
    public void setup() {
        int size = megabytes << 20;
        StringBuilder b = new StringBuilder("kind: ConfigMap\nmetadata:\n  name: bench\ndata:\n");
        if (shape.equals("scalar")) b.append("  k: ").append("x".repeat(size)).append('\n');
        else
            for (int i = 0; b.length() < size; i++)
                b.append("  key-").append(i).append(": value-").append(i).append('\n');
        yaml = b.toString();
    }

    @Benchmark
    public Object read() throws Exception {
        return Mappers.YAML.readTree(yaml);
    }
}
