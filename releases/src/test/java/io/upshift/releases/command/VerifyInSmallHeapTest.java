package io.upshift.releases.command;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.upshift.releases.verify.SigningKeys;
import io.upshift.testkit.HostileServer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code release verify} against a store answering a gibibyte, in a JVM whose heap is 32 MiB: it
 * refuses the store at its signature limit, naming it, and the JVM never runs out of heap (reading
 * the answer whole, as it did, died with "Java heap space").
 */
@Tag("e2e")
class VerifyInSmallHeapTest {

    @TempDir Path dir;

    /** The child JVM: {@code release verify ARGS}, its failure one line on stdout, exit 2. */
    public static void main(String[] args) {
        CommandLine cli = new CommandLine(new VerifyCommand());
        cli.setExecutionExceptionHandler(
                (e, line, parsed) -> {
                    line.getOut().println("refused: " + e.getMessage());
                    return 2;
                });
        System.exit(cli.execute(args));
    }

    @Test
    void aGibibyteStoreIsRefusedWithinASmallHeap() throws Exception {
        try (HostileServer server = HostileServer.start()) {
            server.answer("/sigs/", new HostileServer.Huge(1L << 30, false));
            Path keyring = dir.resolve("keyring.asc");
            Files.writeString(
                    keyring,
                    SigningKeys.generate("Test <test@example.com>", Instant.now()).publicArmored());
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process p =
                    new ProcessBuilder(
                                    java,
                                    "-Xmx32m",
                                    "-XX:+ExitOnOutOfMemoryError",
                                    "-cp",
                                    System.getProperty("java.class.path"),
                                    VerifyInSmallHeapTest.class.getName(),
                                    "sha256:" + "5".repeat(64),
                                    "--keyring",
                                    keyring.toString(),
                                    "--store",
                                    server.url("/sigs").toString())
                            .redirectErrorStream(true)
                            .redirectOutput(dir.resolve("out").toFile())
                            .start();
            await("release verify ends").atMost(Duration.ofSeconds(60)).until(() -> !p.isAlive());
            String out = Files.readString(dir.resolve("out"), StandardCharsets.UTF_8);
            assertThat(out).doesNotContain("OutOfMemoryError").doesNotContain("heap space");
            assertThat(out)
                    .contains(
                            "refused: no signature for sha256:"
                                    + "5".repeat(64)
                                    + " could be read: "
                                    + server.url("/sigs")
                                    + "/: 127.0.0.1: the answer to GET "
                                    + server.url("/sigs")
                                    + "/sha256="
                                    + "5".repeat(64)
                                    + "/signature-1 is larger than 65536 bytes (64 KiB), its"
                                    + " limit");
            assertThat(p.exitValue()).as(out).isEqualTo(2);
            assertThat(server.bodyBytesSent()).isLessThan(32L << 20);
        }
    }
}
