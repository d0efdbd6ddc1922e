package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The errors a user can cause, each through the real command line (a JVM of its own, with an
 * environment of the case's own): one line naming the file, flag, host or command and what to do,
 * and exit code 2; nothing from a parser or a stack trace.
 */
@Tag("e2e")
class ErrorTableTest {

    @TempDir static Path dir;

    /** A case: what is run, with which environment, and the line it must print (a pattern). */
    record Case(String name, List<String> args, Map<String, String> env, String line) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Case> cases() throws Exception {
        Path garbage =
                Files.writeString(dir.resolve("garbage"), "apiVersion: v1\nclusters: [\n  x\n");
        Path list = Files.writeString(dir.resolve("list"), "- 1\n- 2\n");
        Path refused =
                Files.writeString(
                        dir.resolve("refused"),
                        "apiVersion: v1\nclusters:\n- cluster: {server: \"https://127.0.0.1:1\"}\n"
                                + "  name: c\ncontexts:\n- context: {cluster: c, user: u}\n"
                                + "  name: x\ncurrent-context: x\nusers:\n- name: u\n"
                                + "  user: {token: t}\n");
        String home = dir.resolve("home").toString();
        return Stream.of(
                new Case(
                        "no kubeconfig at all",
                        List.of("status"),
                        Map.of("HOME", home),
                        "upshift: no kubeconfig: set KUBECONFIG or --kubeconfig (there is no "
                                + home
                                + "/.kube/config, and this is not a pod)"),
                new Case(
                        "KUBECONFIG naming no file",
                        List.of("upgrade"),
                        Map.of("HOME", home, "KUBECONFIG", dir.resolve("missing").toString()),
                        "upshift: KUBECONFIG names "
                                + dir.resolve("missing")
                                + ", which does not exist: set KUBECONFIG to a kubeconfig file or"
                                + " give --kubeconfig"),
                new Case(
                        "a kubeconfig that is not YAML",
                        List.of("status", "--kubeconfig", garbage.toString()),
                        Map.of("HOME", home),
                        "upshift: "
                                + garbage
                                + ":3: not a kubeconfig (--kubeconfig): while parsing a flow"
                                + " sequence: expected ',' or ']', but got <stream end>"),
                new Case(
                        "a kubeconfig that is a list",
                        List.of("recommend", "--kubeconfig", list.toString()),
                        Map.of("HOME", home),
                        "upshift: "
                                + list
                                + ": not a kubeconfig (--kubeconfig): expected a YAML mapping with"
                                + " clusters, contexts and users"),
                new Case(
                        "an API server that refuses the connection",
                        List.of("status", "--kubeconfig", refused.toString()),
                        Map.of("HOME", home),
                        "upshift: cannot read clusterversions.config.openshift.io/version: cannot"
                                + " connect to 127.0.0.1:1: connection refused"),
                new Case(
                        "a registry that refuses the connection",
                        List.of("release", "info", "docker://127.0.0.1:1/ocp/release:4.18.2"),
                        Map.of("HOME", home),
                        "upshift: RegistryFailed: cannot reach registry 127.0.0.1:1 for the"
                                + " manifest 4.18.2 of 127.0.0.1:1/ocp/release:4.18.2: GET"
                                + " http://127.0.0.1:1/v2/ocp/release/manifests/4.18.2: connection"
                                + " refused"),
                new Case(
                        "a registry whose host is unknown",
                        List.of("release", "info", "docker://registry.invalid/ocp/release:4.18.2"),
                        Map.of("HOME", home),
                        "upshift: RegistryFailed: cannot reach registry registry.invalid for the"
                            + " manifest 4.18.2 of registry.invalid/ocp/release:4.18.2: GET"
                            + " https://registry.invalid/v2/ocp/release/manifests/4.18.2: unknown"
                            + " host"),
                new Case(
                        "a mistyped command",
                        List.of("statsu"),
                        Map.of("HOME", home),
                        "upshift: 'statsu' is not a command of upshift; did you mean status?"),
                new Case(
                        "a mistyped command of a command",
                        List.of("release", "sing"),
                        Map.of("HOME", home),
                        "upshift: 'sing' is not a command of upshift release; did you mean sign?"),
                new Case(
                        "an unknown option",
                        List.of("status", "--detail=nodes"),
                        Map.of("HOME", home),
                        "upshift: upshift status has no option --detail; did you mean"
                                + " --details?"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void eachIsOneLineAndExitCodeTwo(Case c) throws Exception {
        Result r = run(c.args(), c.env());
        assertThat(r.err()).as(c.name()).isEqualTo(c.line() + "\n");
        assertThat(r.code()).as(c.name()).isEqualTo(2);
    }

    @org.junit.jupiter.api.Test
    void bareUpshiftPrintsItsUsage() throws Exception {
        Result r = run(List.of(), Map.of("HOME", dir.resolve("home").toString()));
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .startsWith("upshift: upshift needs a command:\nUsage: upshift [-hV] [COMMAND]\n")
                .contains("\nCommands:\n")
                .contains("  status ");
    }

    private record Result(int code, String err) {}

    /**
     * {@code upshift ARGS} in a JVM of its own, with nothing of this one's environment but PATH.
     */
    private static Result run(List<String> args, Map<String, String> env) throws Exception {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.add("-Duser.home=" + env.get("HOME"));
        command.addAll(
                List.of("-cp", System.getProperty("java.class.path"), "io.upshift.cli.Upshift"));
        command.addAll(args);
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.environment().keySet().removeIf(k -> !k.equals("PATH"));
        pb.environment().putAll(env);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Result(p.exitValue(), err);
    }
}
