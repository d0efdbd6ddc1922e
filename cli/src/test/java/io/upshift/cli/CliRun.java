package io.upshift.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Runs the {@code upshift} command line in the test's JVM and keeps what it printed; writes
 * kubeconfigs for test servers.
 */
public final class CliRun {

    public record Result(int code, String out, String err) {}

    private CliRun() {}

    public static Result run(String... args) {
        StringWriter out = new StringWriter(), err = new StringWriter();
        var cl = Upshift.commandLine();
        cl.setOut(new PrintWriter(out));
        cl.setErr(new PrintWriter(err));
        int code = cl.execute(args);
        return new Result(code, out.toString(), err.toString());
    }

    /**
     * A kubeconfig for the API server at {@code server} (certificates not checked), written into
     * {@code dir}.
     */
    public static Path kubeconfig(Path dir, String server) throws IOException {
        return Files.writeString(
                dir.resolve("kubeconfig"),
                "apiVersion: v1\nkind: Config\nclusters:\n- name: test\n  cluster:\n    server: "
                        + server
                        + "\n"
                        + "    insecure-skip-tls-verify: true\n"
                        + "contexts:\n"
                        + "- name: test\n"
                        + "  context:\n"
                        + "    cluster: test\n"
                        + "    user: test\n"
                        + "current-context: test\n"
                        + "users:\n"
                        + "- name: test\n"
                        + "  user:\n"
                        + "    token: t\n");
    }
}
