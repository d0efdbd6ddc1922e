package io.upshift.bench;

import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import io.upshift.releases.taskgraph.Mode;
import io.upshift.releases.taskgraph.TaskGraph;
import io.upshift.releases.verify.Keyring;
import io.upshift.releases.verify.SignatureStore;
import io.upshift.releases.verify.SignatureVerifier;
import io.upshift.releases.verify.SigningKeys;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Load + filter + graph of a synthetic 2,000-manifest payload and of the real OpenShift 4.19
 * payload fixture (583 documents; read from {@code ../shared/fixtures}, so run from the repository
 * root with {@code ../shared} beside it), and verification of one signature.
 */
@State(Scope.Benchmark)
@BenchmarkMode(org.openjdk.jmh.annotations.Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
        value = 1,
        jvmArgs = {"-Xmx1g", "-XX:ActiveProcessorCount=1"})
public class ReleaseBenchmark {

    static final String DIGEST = "sha256:" + "9".repeat(64);

    Path payload;
    Path openshift =
            Path.of(
                            System.getProperty("upshift.fixtures", "../shared/fixtures"),
                            "openshift-payload-4.19")
                    .toAbsolutePath();
    SignatureVerifier verifier;

    @Setup
    public void setup() throws Exception {
        payload = PayloadWriter.write(Files.createTempDirectory("bench-payload-"), "4.15.0", 2000);
        SigningKeys keys =
                SigningKeys.generate(
                        "Bench <bench@example.com>", Instant.parse("2026-01-01T00:00:00Z"));
        byte[] signature =
                keys.signer()
                        .signRelease(
                                "registry.example/release",
                                DIGEST,
                                "bench",
                                Instant.ofEpochSecond(1));
        SignatureStore memory =
                new SignatureStore() {
                    @Override
                    public String name() {
                        return "memory";
                    }

                    @Override
                    public List<byte[]> signatures(String digest) {
                        return List.of(signature);
                    }
                };
        verifier =
                new SignatureVerifier(
                        List.of(
                                Keyring.parse(
                                        "bench",
                                        keys.publicArmored().getBytes(StandardCharsets.US_ASCII))),
                        List.of(memory));
    }

    @Benchmark
    public TaskGraph loadFilterAndGraph2000Manifests() throws Exception {
        Payload p =
                PayloadLoader.load(
                        payload,
                        "registry.example/release@" + DIGEST,
                        InclusionRules.defaults(),
                        w -> {});
        return TaskGraph.build(p.manifests(), Mode.UPDATING, 0);
    }

    /**
     * As the controller loads a real release: its profile, feature set and gates, its own
     * FeatureGate manifests.
     */
    @Benchmark
    public TaskGraph loadFilterAndGraphOpenShift419() throws Exception {
        if (!Files.isDirectory(openshift))
            throw new IllegalStateException(
                    openshift
                            + " is missing: run from the repository root with ../shared beside it");
        Payload p =
                PayloadLoader.load(
                        openshift,
                        "registry.example/release@" + DIGEST,
                        LoadRules.defaults(),
                        w -> {});
        return TaskGraph.build(p.manifests(), Mode.UPDATING, 0);
    }

    @Benchmark
    @OutputTimeUnit(TimeUnit.MICROSECONDS)
    public SignatureVerifier.Verified verifyOneSignature() throws Exception {
        return verifier.verify(DIGEST);
    }
}
