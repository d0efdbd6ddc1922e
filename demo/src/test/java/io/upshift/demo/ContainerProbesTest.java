package io.upshift.demo;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.net.httpserver.HttpServer;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class ContainerProbesTest {

    private HttpServer server;
    private final AtomicInteger healthz = new AtomicInteger(503);
    private final AtomicInteger readyz = new AtomicInteger(200);

    @BeforeEach
    void serve() throws Exception {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/healthz", x -> answer(x, healthz.get()));
        server.createContext("/readyz", x -> answer(x, readyz.get()));
        server.start();
    }

    private static void answer(com.sun.net.httpserver.HttpExchange x, int code)
            throws java.io.IOException {
        x.sendResponseHeaders(code, -1);
        x.close();
    }

    @AfterEach
    void stop() {
        server.stop(0);
    }

    /** deploy/'s probes: on the port named health, which the pod's process has on another port. */
    private static Container container() {
        return new ContainerBuilder()
                .withName("controller")
                .addNewPort()
                .withName("health")
                .withContainerPort(9098)
                .endPort()
                .withNewStartupProbe()
                .withNewHttpGet()
                .withPath("/healthz")
                .withNewPort("health")
                .endHttpGet()
                .withPeriodSeconds(1)
                .withFailureThreshold(120)
                .endStartupProbe()
                .withNewReadinessProbe()
                .withNewHttpGet()
                .withPath("/readyz")
                .withNewPort("health")
                .endHttpGet()
                .withPeriodSeconds(1)
                .withFailureThreshold(2)
                .endReadinessProbe()
                .build();
    }

    @Test
    void readyOnlyOnceTheStartupProbePassedAndUntilTheReadinessProbeFailsEnoughTimes()
            throws Exception {
        Object process = new Object();
        try (ContainerProbes probes =
                new ContainerProbes(
                                container(),
                                Map.of(9098, server.getAddress().getPort()),
                                () -> process)
                        .start()) {
            // /readyz says 200 from the start, but the startup probe has not passed
            TimeUnit.MILLISECONDS.sleep(2500);
            assertThat(probes.ready()).isFalse();

            healthz.set(200);
            await(probes::ready);

            readyz.set(503);
            await(() -> !probes.ready());
        }
    }

    @Test
    void aContainerThatIsNotThereIsNeverReady() throws Exception {
        healthz.set(200);
        try (ContainerProbes probes =
                new ContainerProbes(
                                container(),
                                Map.of(9098, server.getAddress().getPort()),
                                () -> null)
                        .start()) {
            TimeUnit.MILLISECONDS.sleep(2500);
            assertThat(probes.ready()).isFalse();
        }
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime() - deadline).as("waited 30 s").isNegative();
            TimeUnit.MILLISECONDS.sleep(50);
        }
    }
}
