package io.upshift.operator.cvo;

import io.upshift.core.conditions.Conditions;
import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.OperandVersion;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.operator.cluster.Informers;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.List;

/**
 * The controller's {@code /metrics} in the Prometheus text format, computed from ClusterVersion and ClusterOperators
 * at each scrape: cluster_version, cluster_version_available_updates, cluster_version_payload, cluster_operator_up,
 * cluster_operator_conditions (names as the reference operator exports them). It reads them from informers of its
 * own, so that a scrape costs the API server nothing.
 */
public final class Metrics implements AutoCloseable {

    private final HttpServer server;
    private final Informers informers;

    private Metrics(HttpServer server, Informers informers) {
        this.server = server;
        this.informers = informers;
    }

    public static Metrics serve(KubernetesClient client, int port) throws IOException {
        Informers informers = new Informers(() -> { });
        SharedIndexInformer<ClusterVersion> versions = informers.cache(client.resources(ClusterVersion.class).withName("version").runnableInformer(0));
        SharedIndexInformer<ClusterOperator> operators = informers.cache(client.resources(ClusterOperator.class).runnableInformer(0));
        informers.start();
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 0);
        server.createContext("/metrics", x -> {
            byte[] body;
            int status = 200;
            try {
                body = render(versions.getStore().getByKey("version"), Informers.byName(operators), null).getBytes(StandardCharsets.UTF_8);
            } catch (RuntimeException e) {
                status = 503;
                body = ("# cannot read the cluster: " + e.getMessage() + "\n").getBytes(StandardCharsets.UTF_8);
            }
            x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
            x.sendResponseHeaders(status, body.length);
            try (OutputStream out = x.getResponseBody()) {
                out.write(body);
            }
        });
        server.start();
        return new Metrics(server, informers);
    }

    public int port() {
        return server.getAddress().getPort();
    }

    /** The exposition text; {@code applied} is the number of manifests of the payload applied, when known. */
    static String render(ClusterVersion cv, List<ClusterOperator> operators, Integer applied) {
        StringBuilder m = new StringBuilder();
        m.append("# HELP cluster_version Reports the version of the cluster in terms of seconds since the epoch.\n# TYPE cluster_version gauge\n");
        if (cv != null && cv.getStatus() != null) {
            var s = cv.getStatus();
            List<UpdateHistory> history = s.getHistory() == null ? List.of() : s.getHistory();
            String from = history.stream().filter(h -> "Completed".equals(h.getState())).map(UpdateHistory::getVersion).findFirst().orElse("");
            if (s.getDesired() != null) {
                line(m, "cluster_version", seconds(history.isEmpty() ? null : history.get(0).getStartedTime()),
                        "type", "desired", "version", s.getDesired().getVersion(), "image", s.getDesired().getImage(), "from_version", from);
            }
            history.stream().filter(h -> "Completed".equals(h.getState())).findFirst().ifPresent(h ->
                    line(m, "cluster_version", seconds(h.getCompletionTime()), "type", "completed", "version", h.getVersion(), "image", h.getImage(), "from_version", ""));
            if (!history.isEmpty()) {
                UpdateHistory first = history.get(history.size() - 1);
                line(m, "cluster_version", seconds(first.getStartedTime()), "type", "initial", "version", first.getVersion(), "image", first.getImage(), "from_version", "");
                UpdateHistory top = history.get(0);
                if ("Partial".equals(top.getState())) {
                    line(m, "cluster_version", seconds(top.getStartedTime()), "type", "updating", "version", top.getVersion(), "image", top.getImage(), "from_version", from);
                }
            }
            m.append("# HELP cluster_version_available_updates Report the count of available versions for an upstream and channel.\n# TYPE cluster_version_available_updates gauge\n");
            // as upstream's: the default update service is labelled <default>
            String upstream = cv.getSpec().getUpstream() == null || cv.getSpec().getUpstream().isEmpty() ? "<default>" : cv.getSpec().getUpstream();
            line(m, "cluster_version_available_updates", s.getAvailableUpdates() == null ? 0 : s.getAvailableUpdates().size(),
                    "upstream", upstream, "channel", cv.getSpec().getChannel());
            if (applied != null && s.getDesired() != null) {
                m.append("# HELP cluster_version_payload Report the number of entries in the payload.\n# TYPE cluster_version_payload gauge\n");
                line(m, "cluster_version_payload", applied, "version", s.getDesired().getVersion(), "type", "applied");
            }
        }
        m.append("# HELP cluster_operator_up 1 if a cluster operator is Available=True.\n# TYPE cluster_operator_up gauge\n");
        for (ClusterOperator co : operators) {
            ClusterOperatorStatusCondition available = co.getStatus() == null ? null : Conditions.CLUSTER.find(co.getStatus().getConditions(), "Available");
            String version = co.getStatus() == null || co.getStatus().getVersions() == null ? "" : co.getStatus().getVersions().stream()
                    .filter(v -> "operator".equals(v.getName())).map(OperandVersion::getVersion).findFirst().orElse("");
            line(m, "cluster_operator_up", available != null && "True".equals(available.getStatus()) ? 1 : 0,
                    "name", co.getMetadata().getName(), "version", version, "reason", available == null ? "" : available.getReason());
        }
        m.append("# HELP cluster_operator_conditions Report the conditions for active cluster operators. 0 is False and 1 is True.\n# TYPE cluster_operator_conditions gauge\n");
        for (ClusterOperator co : operators) {
            if (co.getStatus() == null || co.getStatus().getConditions() == null) continue;
            for (ClusterOperatorStatusCondition c : co.getStatus().getConditions()) {
                if (!"True".equals(c.getStatus()) && !"False".equals(c.getStatus())) continue;
                line(m, "cluster_operator_conditions", "True".equals(c.getStatus()) ? 1 : 0,
                        "name", co.getMetadata().getName(), "condition", c.getType(), "reason", c.getReason());
            }
        }
        return m.toString();
    }

    private static long seconds(String time) {
        if (time == null || time.isEmpty()) return 0;
        try {
            return Instant.parse(time).getEpochSecond();
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private static void line(StringBuilder m, String name, long value, String... labels) {
        m.append(name).append('{');
        for (int i = 0; i < labels.length; i += 2) {
            if (i > 0) m.append(',');
            String v = labels[i + 1] == null ? "" : labels[i + 1];
            m.append(labels[i]).append("=\"").append(v.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n")).append('"');
        }
        m.append("} ").append(value).append('\n');
    }

    @Override
    public void close() {
        server.stop(0);
        informers.close();
    }
}
