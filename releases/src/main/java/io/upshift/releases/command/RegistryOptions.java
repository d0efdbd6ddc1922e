package io.upshift.releases.command;

import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.Releases;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.runtime.cli.VerboseOption;
import java.io.PrintWriter;
import java.nio.file.Path;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Options every command that talks to a registry shares. */
public final class RegistryOptions {

    @Option(
            names = "--registry-config",
            paramLabel = "FILE",
            description =
                    "Registry credentials: a docker config.json or pull secret (default:"
                            + " $REGISTRY_AUTH_FILE, then ~/.docker/config.json).")
    Path registryConfig;

    @Option(
            names = "--insecure",
            description = "Allow plain HTTP to registries that are not on this machine.")
    public boolean insecure;

    @Mixin VerboseOption verbose;

    public Releases releases(PrintWriter err) throws ReleaseException {
        return new Releases(credentials(), insecure, w -> err.println("warning: " + w));
    }

    public DockerCredentials credentials() throws ReleaseException {
        return DockerCredentials.discover(registryConfig, System.getenv());
    }
}
