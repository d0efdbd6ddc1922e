package io.upshift.demo;

import io.fabric8.kubernetes.client.KubernetesClient;
import io.upshift.rehearsal.model.ClusterFacts;
import io.upshift.rehearsal.model.Durations;
import io.upshift.rehearsal.model.Rehearsal;
import io.upshift.rehearsal.model.Target;
import io.upshift.rehearsal.read.LiveCluster;
import io.upshift.rehearsal.run.Rehearse;
import io.upshift.releases.image.DockerCredentials;
import io.upshift.releases.image.Releases;
import io.upshift.releases.signatures.HttpSignatureStore;
import io.upshift.releases.signatures.SignatureStores;
import io.upshift.status.estimate.RunLevelTimes;
import io.upshift.testkit.ServiceAccount;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code upshift demo --rehearse}: the demo's update rehearsed before it is asked for, as {@code
 * upshift rehearse --kubeconfig --to-image} would rehearse it, read only, as the ServiceAccount of
 * deploy/rehearse-rbac.yaml. The demo's cluster has never been updated, so nothing is learned of
 * its run-levels: the durations are its simulated world's own, and say so. An operator there rolls
 * out in 0.5 to 1.5 times the rollout delay, so a run-level of n operators takes on average the
 * longest of n such draws, (0.5 + n/(n+1)) times the delay; a host reboots in half the delay. The
 * simulation runs at the demo's own pace (a speed-up of 1).
 */
public final class DemoRehearsal {
    private DemoRehearsal() {}

    /**
     * @param rollout the demo's rollout delay
     * @param work a directory for the rehearsal's files
     */
    public static Rehearsal run(
            DemoRun demo, Duration rollout, Path work, Consumer<String> progress) throws Exception {
        Files.createDirectories(work);
        ClusterFacts facts;
        try (KubernetesClient client =
                demo.cluster().server().client("upshift-rehearse", ServiceAccount.REHEARSE)) {
            facts = new LiveCluster(client).read();
        }
        Rehearse.Source source =
                new Rehearse.Source(
                        facts,
                        "the demo's API server",
                        Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        return new Rehearse(
                        new Releases(DockerCredentials.none(), false, w -> {}),
                        new SignatureStores(HttpSignatureStore.defaultClient()),
                        work,
                        progress)
                .run(
                        source,
                        new Rehearse.Ask(
                                "",
                                demo.releaseB(),
                                Optional.of(new RehearsalSimulator()),
                                "",
                                Duration.ofDays(1),
                                Duration.ofMinutes(5),
                                (d, target) -> demoWorld(d, target, rollout)));
    }

    /** The durations of the demo's simulated world, for the target's run-levels. */
    static Durations demoWorld(Durations d, Target target, Duration rollout) {
        Map<String, Duration> levels = new LinkedHashMap<>();
        for (RunLevelTimes.Level l : target.levels())
            levels.put(
                    l.runLevel(),
                    l.operators().isEmpty() ? rollout : longestOf(l.operators().size(), rollout));
        return d.with(
                levels,
                String.format(
                        Locale.ROOT,
                        "the demo's simulated world (nothing learned: it was never updated): an"
                                + " operator rolls out in %.1f to %.1f s, a run-level of n"
                                + " operators in (0.5 + n/(n+1)) x %.1f s on average",
                        rollout.toMillis() * 0.5 / 1000,
                        rollout.toMillis() * 1.5 / 1000,
                        rollout.toMillis() / 1000.0),
                rollout.dividedBy(2),
                String.format(
                        Locale.ROOT,
                        "the demo's simulated hosts reboot in %.1f s; the agents' own work is"
                                + " simulated",
                        rollout.toMillis() / 2000.0));
    }

    /** The mean of the longest of {@code n} rollouts of 0.5 to 1.5 times {@code rollout}. */
    static Duration longestOf(int n, Duration rollout) {
        return Duration.ofMillis(Math.round(rollout.toMillis() * (0.5 + n / (n + 1.0))));
    }
}
