package io.upshift.testkit;

import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.generators.OpenBSDBCrypt;

/**
 * Debian's real {@code docker-registry} (the OCI distribution registry) on 127.0.0.1, started for a
 * test and stopped after it; optionally with htpasswd basic authentication. .ci/run installs the
 * package.
 */
public final class LocalRegistry implements AutoCloseable {

    private final Process process;
    private final int port;

    private LocalRegistry(Process process, int port) {
        this.process = process;
        this.port = port;
    }

    /**
     * Starts a registry storing under {@code dir}; with {@code user} set, only that user and
     * password may use it.
     */
    public static LocalRegistry start(Path dir, String user, String password)
            throws IOException, InterruptedException {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        StringBuilder config =
                new StringBuilder(
                        "version: 0.1\nlog:\n  level: error\n  accesslog:\n    disabled: true\n"
                                + "storage:\n  filesystem:\n    rootdirectory: "
                                + dir.resolve("data")
                                + "\n"
                                + "http:\n  addr: 127.0.0.1:"
                                + port
                                + "\n");
        if (user != null) {
            byte[] salt = new byte[16];
            new SecureRandom().nextBytes(salt);
            Files.writeString(
                    dir.resolve("htpasswd"),
                    user
                            + ":"
                            + OpenBSDBCrypt.generate("2y", password.toCharArray(), salt, 5)
                            + "\n");
            config.append("auth:\n  htpasswd:\n    realm: upshift-test\n    path: ")
                    .append(dir.resolve("htpasswd"))
                    .append('\n');
        }
        Path file =
                Files.writeString(
                        dir.resolve("config.yml"), config.toString(), StandardCharsets.UTF_8);
        Process p =
                new ProcessBuilder("docker-registry", "serve", file.toString())
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("registry.log").toFile())
                        .start();
        LocalRegistry registry = new LocalRegistry(p, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive())
                throw new IOException(
                        "docker-registry exited: " + Files.readString(dir.resolve("registry.log")));
            try {
                HttpURLConnection c =
                        (HttpURLConnection)
                                new URL("http://127.0.0.1:" + port + "/v2/").openConnection();
                int code = c.getResponseCode();
                if (code == 200 || code == 401) return registry;
            } catch (IOException notYet) {
                // still starting
            }
            Thread.sleep(50);
        }
        registry.close();
        throw new IOException("docker-registry did not start within 20 s");
    }

    /** {@code 127.0.0.1:<port>} */
    public String host() {
        return "127.0.0.1:" + port;
    }

    @Override
    public void close() {
        Processes.stop(process);
    }
}
