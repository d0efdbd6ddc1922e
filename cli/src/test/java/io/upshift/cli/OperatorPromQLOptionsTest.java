package io.upshift.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code upshift operator}'s PromQL target options are upstream's, with their defaults, and are
 * refused in one line, exit 2, before anything starts when they do not go together.
 */
class OperatorPromQLOptionsTest {
    @TempDir Path dir;

    @Test
    void upstreamsFlagsAndDefaults() {
        // picocli wraps long values at their dots: lines joined, the values read whole
        String help = CliRun.run("operator", "--help").out().replaceAll("\n\\s+", "");
        assertThat(help)
                .contains(
                        "--metrics-url, --prometheus-url=URL",
                        "https://thanos-querier.openshift-monitoring.svc.cluster.local:9091",
                        "--metrics-ca-bundle-file=FILE",
                        "/etc/tls/service-ca/service-ca.crt",
                        "--metrics-token-file=FILE",
                        "/var/run/secrets/kubernetes.io/serviceaccount/token",
                        "--metrics-namespace=NS",
                        "--metrics-service=NAME",
                        "--use-dns-for-services");
    }

    @Test
    void aServiceLookupWithoutAServiceIsRefused() throws Exception {
        Path kubeconfig = CliRun.kubeconfig(dir, "https://127.0.0.1:1");
        CliRun.Result r =
                CliRun.run(
                        "operator", "--kubeconfig", kubeconfig.toString(), "--metrics-service", "");
        assertThat(r.code()).isEqualTo(2);
        assertThat(r.err())
                .contains(
                        "--use-dns-for-services is disabled, so --metrics-service and"
                                + " --metrics-namespace must be set");
        CliRun.Result relative =
                CliRun.run(
                        "operator",
                        "--kubeconfig",
                        kubeconfig.toString(),
                        "--prometheus-url",
                        "prometheus:9090");
        assertThat(relative.code()).isEqualTo(2);
        assertThat(relative.err())
                .contains(
                        "--metrics-url must be an absolute http or https URL, not"
                                + " \"prometheus:9090\"");
    }
}
