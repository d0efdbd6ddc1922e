package io.upshift.testkit;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * Debian's real {@code prometheus} on 127.0.0.1, scraping a metrics page this test serves every
 * second, started for a test and stopped after it. .ci/run installs the package.
 */
public final class LocalPrometheus implements AutoCloseable {

    private final Process process;
    private final HttpServer exporter;
    private final int port;

    private LocalPrometheus(Process process, HttpServer exporter, int port) {
        this.process = process;
        this.exporter = exporter;
        this.port = port;
    }

    public static LocalPrometheus start(Path dir, String metrics) throws Exception {
        return start(dir, metrics, null);
    }

    /**
     * As {@link #start(Path, String)}, evaluating {@code rules} (a Prometheus rule file's YAML,
     * e.g. alerting rules) every second; null: none. With rules, it is started once they are
     * evaluated.
     */
    public static LocalPrometheus start(Path dir, String metrics, String rules) throws Exception {
        return start(dir, () -> metrics, rules);
    }

    /**
     * As {@link #start(Path, String, String)}, serving what {@code metrics} holds at each scrape: a
     * test changes it to make an alert fire or resolve.
     */
    public static LocalPrometheus start(
            Path dir, java.util.function.Supplier<String> metrics, String rules) throws Exception {
        HttpServer exporter = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        exporter.createContext(
                "/metrics",
                x -> {
                    byte[] body = metrics.get().getBytes(StandardCharsets.UTF_8);
                    x.getResponseHeaders().set("Content-Type", "text/plain; version=0.0.4");
                    x.sendResponseHeaders(200, body.length);
                    x.getResponseBody().write(body);
                    x.close();
                });
        exporter.start();
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        if (rules != null) Files.writeString(dir.resolve("rules.yml"), rules);
        Path config =
                Files.writeString(
                        dir.resolve("prometheus.yml"),
                        "global:\n"
                                + "  scrape_interval: 1s\n"
                                + "  evaluation_interval: 1s\n"
                                + (rules == null
                                        ? ""
                                        : "rule_files:\n- " + dir.resolve("rules.yml") + "\n")
                                + "scrape_configs:\n"
                                + "- job_name: cluster\n"
                                + "  static_configs:\n"
                                + "  - targets: ['127.0.0.1:"
                                + exporter.getAddress().getPort()
                                + "']\n");
        Process p =
                new ProcessBuilder(
                                "prometheus",
                                "--config.file=" + config,
                                "--storage.tsdb.path=" + dir.resolve("data"),
                                "--web.listen-address=127.0.0.1:" + port,
                                "--log.level=warn")
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("prometheus.log").toFile())
                        .start();
        LocalPrometheus prometheus = new LocalPrometheus(p, exporter, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                prometheus.close();
                throw new IOException(
                        "prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            if (prometheus.hasScraped() && (rules == null || prometheus.hasEvaluatedRules()))
                return prometheus;
            Thread.sleep(200);
        }
        prometheus.close();
        throw new IOException(
                "prometheus did not scrape within 60 s: "
                        + Files.readString(dir.resolve("prometheus.log")));
    }

    /**
     * A target Prometheus scrapes over HTTPS without verifying its certificate (the controllers'
     * self-signed ones), with the labels given (job, namespace, node ...).
     */
    public record Target(String address, java.util.Map<String, String> labels) {}

    /**
     * Prometheus scraping {@code targets} every second and evaluating the Prometheus rule files
     * {@code rules} every second; started once each target has been scraped once.
     */
    public static LocalPrometheus scraping(
            Path dir, java.util.List<Target> targets, java.util.List<Path> rules) throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
        }
        StringBuilder config =
                new StringBuilder("global:\n  scrape_interval: 1s\n  evaluation_interval: 1s\n");
        if (!rules.isEmpty()) {
            config.append("rule_files:\n");
            for (Path r : rules) config.append("- '").append(r.toAbsolutePath()).append("'\n");
        }
        config.append("scrape_configs:\n");
        int i = 0;
        for (Target t : targets) {
            config.append("- job_name: target-").append(i++).append('\n');
            config.append("  scheme: https\n  tls_config: {insecure_skip_verify: true}\n");
            config.append("  static_configs:\n  - targets: ['").append(t.address()).append("']\n");
            config.append("    labels:\n");
            t.labels()
                    .forEach(
                            (k, v) ->
                                    config.append("      ")
                                            .append(k)
                                            .append(": '")
                                            .append(v)
                                            .append("'\n"));
        }
        Path file = Files.writeString(dir.resolve("prometheus.yml"), config);
        Process p =
                new ProcessBuilder(
                                "prometheus",
                                "--config.file=" + file,
                                "--storage.tsdb.path=" + dir.resolve("data"),
                                "--web.listen-address=127.0.0.1:" + port,
                                "--log.level=warn")
                        .redirectErrorStream(true)
                        .redirectOutput(dir.resolve("prometheus.log").toFile())
                        .start();
        HttpServer none = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        none.start();
        LocalPrometheus prometheus = new LocalPrometheus(p, none, port);
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            if (!p.isAlive()) {
                prometheus.close();
                throw new IOException(
                        "prometheus exited: " + Files.readString(dir.resolve("prometheus.log")));
            }
            String up = prometheus.get("/api/v1/query?query=count(up%3D%3D1)");
            if (up != null && up.contains("\"" + targets.size() + "\"]")) return prometheus;
            Thread.sleep(200);
        }
        prometheus.close();
        throw new IOException(
                "prometheus did not scrape every target within 60 s: "
                        + Files.readString(dir.resolve("prometheus.log")));
    }

    /** The alerts Prometheus holds now (pending and firing), as /api/v1/alerts answers. */
    public String alerts() {
        String answer = get("/api/v1/alerts");
        return answer == null ? "" : answer;
    }

    /** The body of a GET of {@code path}; null when it did not answer 200. */
    public String get(String path) {
        try {
            HttpURLConnection c = (HttpURLConnection) new URL(url() + path).openConnection();
            if (c.getResponseCode() != 200) return null;
            return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException notYet) {
            return null;
        }
    }

    private boolean hasScraped() {
        try {
            HttpURLConnection c =
                    (HttpURLConnection) new URL(url() + "/api/v1/query?query=up").openConnection();
            if (c.getResponseCode() != 200) return false;
            return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .contains("\"value\"");
        } catch (IOException notYet) {
            return false;
        }
    }

    private boolean hasEvaluatedRules() {
        try {
            HttpURLConnection c =
                    (HttpURLConnection) new URL(url() + "/api/v1/rules").openConnection();
            if (c.getResponseCode() != 200) return false;
            return new String(c.getInputStream().readAllBytes(), StandardCharsets.UTF_8)
                    .contains("\"lastEvaluation\":\"2");
        } catch (IOException notYet) {
            return false;
        }
    }

    public URI url() {
        return URI.create("http://127.0.0.1:" + port);
    }

    @Override
    public void close() {
        Processes.stop(process);
        exporter.stop(0);
    }
}
