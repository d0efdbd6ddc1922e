package io.upshift.runtime.cli;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.runtime.metrics.MetricsOptions;
import io.upshift.runtime.metrics.MetricsServer;
import io.upshift.runtime.metrics.ScrapeAccess;
import io.upshift.runtime.metrics.ServingCertificate;
import io.upshift.runtime.metrics.TokenAccess;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Clock;
import java.util.List;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * How {@code upshift pools} and {@code upshift agent} serve {@code /metrics} (a picocli mixin): as
 * the operator serves its own, over HTTPS with bearer tokens the API server reviews, on the port
 * asked for.
 */
public final class MetricsServing {
    private static final Logger LOG = LoggerFactory.getLogger(MetricsServer.class);

    @Spec(Spec.Target.MIXEE)
    picocli.CommandLine.Model.CommandSpec spec;

    @Option(
            names = "--metrics-port",
            defaultValue = "0",
            paramLabel = "PORT",
            description = "Serve /metrics on this port of every address, over HTTPS (0: off).")
    int port;

    @Option(
            names = "--metrics-auth",
            paramLabel = "none|token",
            description = {
                "Who may scrape /metrics. token: a bearer token that a TokenReview authenticates"
                        + " and whose user a SubjectAccessReview allows to get the non-resource"
                        + " URL /metrics, as the operator's; none: anyone who reaches the port."
                        + " Default: token inside a cluster, none outside one."
            })
    String auth;

    @Option(
            names = "--serving-cert-file",
            paramLabel = "FILE",
            description =
                    "The PEM certificate (chain, leaf first) /metrics is served with, read again"
                            + " when it changes; with --serving-key-file. Without them: a"
                            + " self-signed certificate made at start.")
    Path cert;

    @Option(
            names = "--serving-key-file",
            paramLabel = "FILE",
            description = "The PEM private key of --serving-cert-file (unencrypted).")
    Path key;

    @Option(
            names = "--serving-cert-optional",
            description =
                    "The files of --serving-cert-file and --serving-key-file may be absent: a"
                            + " self-signed certificate is served until both are there.")
    boolean optional;

    @Option(
            names = "--metrics-plain-http",
            description =
                    "Serve /metrics over plain HTTP instead of HTTPS: scrapers' bearer tokens and"
                            + " the metrics cross the network readable.")
    boolean plainHttp;

    /** The options, refused before anything starts when they do not go together. */
    public MetricsOptions options() {
        String mode =
                auth != null
                        ? auth
                        : System.getenv("KUBERNETES_SERVICE_HOST") != null ? "token" : "none";
        MetricsOptions.Auth a;
        if (mode.equals("none")) a = MetricsOptions.Auth.NONE;
        else if (mode.equals("token")) a = MetricsOptions.Auth.TOKEN;
        else throw usage("--metrics-auth must be none or token, not \"" + mode + "\"");
        if (port < 0 || port > 65535) throw usage("--metrics-port must be a port, 0 for none");
        if ((cert == null) != (key == null))
            throw usage("--serving-cert-file and --serving-key-file go together");
        if (plainHttp && cert != null)
            throw usage(
                    "--metrics-plain-http serves no certificate: leave out --serving-cert-file"
                            + " and --serving-key-file, or it");
        if (optional && cert == null)
            throw usage(
                    "--serving-cert-optional goes with --serving-cert-file and --serving-key-file");
        MetricsOptions.Transport transport =
                plainHttp
                        ? new MetricsOptions.Transport.PlainHttp()
                        : cert != null
                                ? new MetricsOptions.Transport.Files(cert, key, optional)
                                : new MetricsOptions.Transport.SelfSigned();
        return new MetricsOptions(port == 0 ? null : new InetSocketAddress(port), a, transport);
    }

    /**
     * Serves {@code scrape} as the options say; null when they ask for no metrics.
     *
     * @param reviewer the client token reviews are asked with
     * @param names what a self-signed certificate is for
     */
    public MetricsServer start(
            MetricsOptions o,
            Supplier<String> scrape,
            KubernetesClient reviewer,
            List<String> names)
            throws IOException {
        if (!o.served()) return null;
        ServingCertificate certificate;
        try {
            certificate = o.certificate(names, Clock.systemUTC().instant());
        } catch (NoSuchFileException e) {
            throw usage(e.getFile() + ": no such file (--serving-cert-file/--serving-key-file)");
        } catch (IOException | GeneralSecurityException e) {
            throw usage("--serving-cert-file/--serving-key-file: " + e.getMessage());
        }
        ScrapeAccess access =
                o.auth() == MetricsOptions.Auth.TOKEN
                        ? new TokenAccess(reviewer, Clock.systemUTC())
                        : ScrapeAccess.ANYONE;
        MetricsServer server;
        try {
            server =
                    certificate == null
                            ? MetricsServer.startPlainHttp(o.address(), scrape, access)
                            : MetricsServer.start(o.address(), scrape, access, certificate);
        } catch (GeneralSecurityException e) {
            throw new IOException("cannot serve /metrics over HTTPS: " + e.getMessage(), e);
        }
        LOG.info(
                "serving /metrics on port {} over {} ({})",
                server.port(),
                certificate == null
                        ? "plain HTTP"
                        : certificate.isSelfSigned()
                                ? "HTTPS, self-signed, SHA-256 " + certificate.fingerprint()
                                : "HTTPS",
                o.auth() == MetricsOptions.Auth.TOKEN
                        ? "bearer tokens reviewed by the API server"
                        : "no authentication");
        return server;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }
}
