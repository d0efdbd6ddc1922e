package io.upshift.graph.command;

import io.upshift.graph.client.PromQLTarget;
import java.net.URI;
import java.nio.file.Path;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * Where the cluster-version controller evaluates PromQL update risks (and the pool controller its
 * pools' health gates on Prometheus), with upstream's flags and defaults ({@code
 * cluster-version-operator start}): OpenShift's thanos-querier, dialled at its Service's cluster
 * IP, trusted through the service CA and asked with the pod's ServiceAccount token.
 */
public final class PromQLOptions {
    private static final PromQLTarget DEFAULT = PromQLTarget.openShiftMonitoring();

    @Option(
            names = {"--metrics-url", "--prometheus-url"},
            paramLabel = "URL",
            description = {
                "The URL used to access the remote PromQL query service (default:"
                        + " ${DEFAULT-VALUE}). --prometheus-url is another name for it."
            })
    URI url = DEFAULT.url();

    @Option(
            names = "--metrics-ca-bundle-file",
            paramLabel = "FILE",
            description = {
                "The CA bundle that signs the PromQL query service's certificate, read at each"
                        + " query (default: ${DEFAULT-VALUE}, the service CA); empty: the system's"
                        + " authorities."
            })
    String caBundleFile = DEFAULT.caBundleFile().toString();

    @Option(
            names = "--metrics-token-file",
            paramLabel = "FILE",
            description = {
                "The bearer token file sent to the PromQL query service, read at each query"
                        + " (default: ${DEFAULT-VALUE}, the pod's ServiceAccount token); empty:"
                        + " none."
            })
    String tokenFile = DEFAULT.tokenFile().toString();

    @Option(
            names = "--metrics-namespace",
            paramLabel = "NS",
            description = {
                "The namespace of the PromQL query service's Service (default: ${DEFAULT-VALUE});"
                        + " needed unless --use-dns-for-services."
            })
    String namespace = DEFAULT.serviceNamespace();

    @Option(
            names = "--metrics-service",
            paramLabel = "NAME",
            description = {
                "The PromQL query service's Service, whose cluster IP is dialled (default:"
                        + " ${DEFAULT-VALUE}); needed unless --use-dns-for-services."
            })
    String service = DEFAULT.serviceName();

    @Option(
            names = "--use-dns-for-services",
            arity = "0..1",
            fallbackValue = "true",
            paramLabel = "BOOL",
            description = {
                "Dial the --metrics-url host as DNS resolves it instead of the Service's cluster"
                        + " IP."
            })
    boolean useDns = DEFAULT.useDns();

    /** The target, refused in one line when the options do not go together. */
    public PromQLTarget target(CommandSpec spec) {
        if (url.getScheme() == null || url.getHost() == null)
            throw new ParameterException(
                    spec.commandLine(),
                    "--metrics-url must be an absolute http or https URL, not \"" + url + "\"");
        if (!useDns && (namespace.isEmpty() || service.isEmpty()))
            throw new ParameterException(
                    spec.commandLine(),
                    "--use-dns-for-services is disabled, so --metrics-service and"
                            + " --metrics-namespace must be set");
        return new PromQLTarget(
                url,
                useDns,
                namespace,
                service,
                caBundleFile.isEmpty() ? null : Path.of(caBundleFile),
                tokenFile.isEmpty() ? null : Path.of(tokenFile));
    }
}
