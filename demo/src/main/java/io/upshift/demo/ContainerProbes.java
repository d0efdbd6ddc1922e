package io.upshift.demo;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The kubelet's startup and readiness probes of a container the demo runs as a process: as a
 * kubelet does, the startup probe (if any) every its period until it passes, then the readiness
 * probe every its period; the container is ready after {@code successThreshold} probes passed in a
 * row and no longer after {@code failureThreshold} failed in a row, and never before its startup
 * probe passed. Without a readiness probe it is ready once started. A container that started again
 * starts over, not ready. HTTP GET probes only (a 2xx or 3xx answer within {@code timeoutSeconds}
 * passes), on the port of this machine the container's port stands for; {@code initialDelaySeconds}
 * is not simulated.
 */
final class ContainerProbes implements AutoCloseable {
    private final Probe startup;
    private final Probe readiness;
    private final Map<String, Integer> named;
    private final Map<Integer, Integer> ports;
    private final Supplier<Object> container;
    private final Thread thread;
    private volatile boolean ready;
    private volatile boolean stopped;

    /**
     * @param ports each containerPort and the port of this machine it stands for (none: the same)
     * @param container the container's process as it runs now: a new one starts over
     */
    ContainerProbes(Container c, Map<Integer, Integer> ports, Supplier<Object> container) {
        this.startup = c.getStartupProbe();
        this.readiness = c.getReadinessProbe();
        this.named =
                (c.getPorts() == null ? List.<ContainerPort>of() : c.getPorts())
                        .stream()
                                .filter(p -> p.getName() != null && p.getContainerPort() != null)
                                .collect(
                                        Collectors.toMap(
                                                ContainerPort::getName,
                                                ContainerPort::getContainerPort,
                                                (a, b) -> a));
        this.ports = ports;
        this.container = container;
        this.thread = new Thread(this::run, "kubelet-probes");
        this.thread.setDaemon(true);
    }

    ContainerProbes start() {
        thread.start();
        return this;
    }

    /** Whether the container is ready, as its last probes said. */
    boolean ready() {
        return ready;
    }

    private void run() {
        Object probed = null;
        boolean started = false;
        int passed = 0, failed = 0;
        while (!stopped) {
            Object now = container.get();
            if (now != probed) { // started (again): the probes start over
                probed = now;
                started = startup == null;
                passed = 0;
                failed = 0;
                ready = false;
            }
            Probe probe = started ? readiness : startup;
            if (probe == null) { // started, no readiness probe
                ready = now != null;
                if (!pause(1)) return;
                continue;
            }
            boolean ok = now != null && passes(probe);
            boolean startingUp = !started;
            if (!started) {
                if (ok) started = true;
            } else if (ok) {
                failed = 0;
                if (++passed >= threshold(probe.getSuccessThreshold(), 1)) ready = true;
            } else {
                passed = 0;
                if (++failed >= threshold(probe.getFailureThreshold(), 3)) ready = false;
            }
            // the readiness probe runs as soon as the startup probe has passed
            if (startingUp && started) continue;
            if (!pause(threshold(probe.getPeriodSeconds(), 10))) return;
        }
    }

    private boolean passes(Probe probe) {
        HTTPGetAction get = probe.getHttpGet();
        if (get == null) return false; // exec and tcpSocket probes are not simulated
        Integer port = port(get.getPort());
        if (port == null) return false;
        String scheme = get.getScheme() == null ? "http" : get.getScheme().toLowerCase(Locale.ROOT);
        String path = get.getPath() == null ? "/" : get.getPath();
        int timeout = 1000 * threshold(probe.getTimeoutSeconds(), 1);
        try {
            HttpURLConnection c =
                    (HttpURLConnection)
                            URI.create(scheme + "://127.0.0.1:" + port + path)
                                    .toURL()
                                    .openConnection();
            c.setConnectTimeout(timeout);
            c.setReadTimeout(timeout);
            c.setInstanceFollowRedirects(false);
            try {
                int code = c.getResponseCode();
                try (InputStream in = code >= 400 ? c.getErrorStream() : c.getInputStream()) {
                    if (in != null) in.readAllBytes();
                }
                return code >= 200 && code < 400;
            } finally {
                c.disconnect();
            }
        } catch (IOException | IllegalArgumentException e) {
            return false;
        }
    }

    /** The port of this machine for a probe's port, by number or by the container port's name. */
    private Integer port(IntOrString p) {
        if (p == null) return null;
        Integer container = p.getIntVal() != null ? p.getIntVal() : named.get(p.getStrVal());
        return container == null ? null : ports.getOrDefault(container, container);
    }

    private static int threshold(Integer value, int otherwise) {
        return value == null || value < 1 ? otherwise : value;
    }

    private boolean pause(int seconds) {
        try {
            Thread.sleep(seconds * 1000L);
            return !stopped;
        } catch (InterruptedException e) {
            return false;
        }
    }

    @Override
    public void close() {
        stopped = true;
        ready = false;
        thread.interrupt();
    }
}
