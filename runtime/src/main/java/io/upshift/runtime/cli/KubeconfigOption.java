package io.upshift.runtime.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import io.upshift.api.json.Mappers;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.stream.Stream;
import picocli.CommandLine.Option;

/**
 * The {@code --kubeconfig} option every command that talks to a cluster takes (a picocli mixin),
 * and the client it names: that file, else {@code KUBECONFIG}, else in-cluster or ~/.kube/config.
 */
public final class KubeconfigOption {
    @Option(
            names = "--kubeconfig",
            paramLabel = "FILE",
            description = "Kubeconfig to use (default: $KUBECONFIG, in-cluster, ~/.kube/config).")
    String kubeconfig;

    /** Whether {@code --kubeconfig} was given. */
    public boolean given() {
        return kubeconfig != null;
    }

    public KubernetesClient connect() {
        return new KubernetesClientBuilder().withConfig(config()).build();
    }

    /** A client whose requests carry {@code userAgent}. */
    public KubernetesClient connectAs(String userAgent) {
        return new KubernetesClientBuilder().withConfig(config(userAgent)).build();
    }

    /** The configuration of the cluster the options name, with a user agent naming the command. */
    public Config config(String userAgent) {
        Config config = config();
        config.setUserAgent(userAgent);
        return config;
    }

    private Config config() {
        Config config;
        if (kubeconfig != null) {
            Path file = Path.of(kubeconfig);
            config = Config.fromKubeconfig(null, read(file, "--kubeconfig"), file.toString());
        } else {
            String env = System.getenv("KUBECONFIG");
            Path home = Path.of(System.getProperty("user.home"), ".kube", "config");
            if (env != null && !env.isBlank()) {
                Path first =
                        Stream.of(env.split(File.pathSeparator))
                                .filter(f -> !f.isBlank())
                                .map(Path::of)
                                .filter(Files::exists)
                                .findFirst()
                                .orElseThrow(
                                        () ->
                                                new IllegalArgumentException(
                                                        "KUBECONFIG names "
                                                                + env
                                                                + ", which does not exist: set"
                                                                + " KUBECONFIG to a kubeconfig file"
                                                                + " or give --kubeconfig"));
                read(first, "KUBECONFIG");
            } else if (Files.exists(home)) {
                read(home, "the default kubeconfig");
            } else if (System.getenv("KUBERNETES_SERVICE_HOST") == null
                    && System.getenv("KUBERNETES_MASTER") == null
                    && System.getProperty("kubernetes.master") == null) {
                throw new IllegalArgumentException(
                        "no kubeconfig: set KUBECONFIG or --kubeconfig (there is no "
                                + home
                                + ", and this is not a pod)");
            }
            config = Config.autoConfigure(null);
        }
        config.setRequestRetryBackoffLimit(1);
        return config;
    }

    /**
     * The text of the kubeconfig {@code file}, checked to be YAML of a kubeconfig's shape, so that
     * a bad one is named with its line rather than with a parser's excerpt; {@code source} says
     * where the file was named.
     */
    private static String read(Path file, String source) {
        String text;
        try {
            text = Files.readString(file);
        } catch (NoSuchFileException e) {
            throw new IllegalArgumentException(file + ": no such file (" + source + ")");
        } catch (IOException e) {
            throw new IllegalArgumentException(
                    file + ": cannot read (" + source + "): " + e.getMessage());
        }
        JsonNode doc;
        try {
            doc = Mappers.YAML.readTree(text);
        } catch (JsonProcessingException e) {
            int line = e.getLocation() == null ? 0 : e.getLocation().getLineNr();
            throw new IllegalArgumentException(
                    file
                            + (line > 0 ? ":" + line : "")
                            + ": not a kubeconfig ("
                            + source
                            + "): "
                            + Mappers.problem(e));
        }
        if (doc == null || !doc.isObject() || !doc.has("clusters"))
            throw new IllegalArgumentException(
                    file
                            + ": not a kubeconfig ("
                            + source
                            + "): expected a YAML mapping with clusters, contexts and users");
        return text;
    }
}
