package io.upshift.runtime.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
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
            try {
                config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)));
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException(kubeconfig + ": no such file (--kubeconfig)");
            } catch (IOException e) {
                throw new IllegalArgumentException(kubeconfig + ": cannot read: " + e.getMessage());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(
                        kubeconfig + ": not a usable kubeconfig: " + e.getMessage());
            }
        } else {
            config = Config.autoConfigure(null);
        }
        config.setRequestRetryBackoffLimit(1);
        return config;
    }
}
