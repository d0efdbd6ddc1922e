package io.upshift.cli;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

/** A client for the cluster named by {@code --kubeconfig}, else {@code KUBECONFIG}, else in-cluster or ~/.kube/config. */
final class KubeClients {
    private KubeClients() {
    }

    static KubernetesClient connect(String kubeconfig) {
        Config config;
        if (kubeconfig != null) {
            try {
                config = Config.fromKubeconfig(Files.readString(Path.of(kubeconfig)));
            } catch (NoSuchFileException e) {
                throw new IllegalArgumentException(kubeconfig + ": no such file (--kubeconfig)");
            } catch (IOException e) {
                throw new IllegalArgumentException(kubeconfig + ": cannot read: " + e.getMessage());
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(kubeconfig + ": not a usable kubeconfig: " + e.getMessage());
            }
        } else {
            config = Config.autoConfigure(null);
        }
        config.setRequestRetryBackoffLimit(1);
        return new KubernetesClientBuilder().withConfig(config).build();
    }
}
