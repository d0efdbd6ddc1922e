package io.upshift.pools.command;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.pools.agent.AgentOptions;
import io.upshift.pools.agent.HostAccess;
import io.upshift.pools.agent.HostFiles;
import io.upshift.pools.agent.HostLock;
import io.upshift.pools.agent.NodeAgent;
import io.upshift.pools.agent.SystemdHost;
import io.upshift.runtime.cli.CheckFailedException;
import io.upshift.runtime.cli.KubeconfigOption;
import io.upshift.runtime.cli.MetricsServing;
import io.upshift.runtime.health.Startup;
import io.upshift.runtime.metrics.MetricsOptions;
import io.upshift.runtime.metrics.MetricsServer;
import java.net.InetAddress;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** {@code upshift agent}: the node agent, one per node (a DaemonSet). */
@Command(
        name = "agent",
        mixinStandardHelpOptions = true,
        description = {
            "Run the node agent of one node.",
            "Brings this node to the config its pool controller set: cordon, drain through"
                    + " evictions, write files under the host root, stage the OS image, reboot,"
                    + " uncordon."
        })
public final class AgentCommand implements Callable<Integer> {
    private static final Logger LOG = LoggerFactory.getLogger(AgentCommand.class);

    @Mixin KubeconfigOption kube;

    @Option(
            names = "--node-name",
            required = true,
            defaultValue = "${env:NODE_NAME}",
            paramLabel = "NODE",
            description = "The node this agent runs on (default: $NODE_NAME).")
    String nodeName;

    @Option(
            names = "--host-root",
            defaultValue = "/host",
            paramLabel = "DIR",
            description = "Where the host's / is mounted (default: ${DEFAULT-VALUE}).")
    Path hostRoot;

    @Option(
            names = "--drain-timeout",
            defaultValue = "PT1H",
            description =
                    "Give up draining after this long; the node goes Degraded (default:"
                            + " ${DEFAULT-VALUE}).")
    Duration drainTimeout;

    @Mixin MetricsServing metrics;

    /**
     * Checks first that the node gives the agent what it needs (root, the host's / writable at
     * --host-root, the host's systemd through chroot): one line naming what is missing and exit
     * code 1 (a check that found something wrong), rather than a failure at each step later. Then
     * waits until no other agent runs on the host ({@link HostLock}), and runs until stopped.
     */
    @Override
    public Integer call() throws Exception {
        Startup.mark("command running");
        MetricsOptions metricsOptions = metrics.options(); // refused before anything starts
        HostAccess.missing(hostRoot, HostAccess.REAL)
                .ifPresent(
                        missing -> {
                            throw new CheckFailedException(missing);
                        });
        AgentOptions d = AgentOptions.defaults();
        AgentOptions options =
                new AgentOptions(
                        drainTimeout,
                        d.drainRetry(),
                        d.drainSlowRetry(),
                        d.degradedRetry(),
                        d.poll());
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(stopped::countDown, "agent-stop"));
        try (HostLock lock =
                        HostLock.acquire(
                                hostRoot,
                                Duration.ofSeconds(1),
                                holder ->
                                        LOG.info(
                                                "nodes/{}: {} holds {} on this host: waiting for"
                                                        + " it to stop",
                                                nodeName,
                                                holder,
                                                HostLock.PATH));
                KubernetesClient connected = kube.connect();
                KubernetesClient client = NodeAgent.client(connected.getConfiguration());
                NodeAgent agent =
                        new NodeAgent(
                                        client,
                                        nodeName,
                                        new HostFiles(hostRoot),
                                        new SystemdHost(hostRoot),
                                        options,
                                        Clock.systemUTC())
                                .start();
                KubernetesClient metricsClient =
                        metricsOptions.served() ? kube.connectAs("upshift-agent-metrics") : null;
                MetricsServer metricsServer =
                        metrics.start(
                                metricsOptions,
                                agent.metrics()::scrape,
                                metricsClient,
                                PoolsCommand.certificateNames(
                                        InetAddress.getLocalHost().getHostName(),
                                        "machine-config-daemon",
                                        "openshift-machine-config-operator"))) {
            Startup.mark("ready");
            stopped.await();
        }
        return 0;
    }
}
