package io.upshift.clusterversion.controller;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.batch.v1.JobStatusBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.upshift.releases.inclusion.LoadRules;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import io.upshift.releases.signatures.ConfiguredStore;
import io.upshift.releases.verify.SignatureVerifier;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What ClusterVersion says while a target's payload-retrieval Job is pending: upstream's
 * RetrievePayload words at once, in place of an earlier request's refusal, written once; then the
 * update goes on when the Job succeeds.
 */
@Tag("e2e")
class PayloadRetrievalStatusTest {

    @TempDir Path dir;

    /**
     * Releases from {@code fake}, but {@code retrieved}'s payload through a Job, as a controller
     * inside a cluster gets it.
     */
    private static PayloadSource throughJobs(
            FakePayloads fake, String retrieved, PayloadJobs jobs) {
        return new PayloadSource() {
            @Override
            public String pin(String pullspec) throws ReleaseException {
                return fake.pin(pullspec);
            }

            @Override
            public Payload load(String pullspec, LoadRules rules) throws ReleaseException {
                return load(pullspec, "", rules);
            }

            @Override
            public Payload load(String pullspec, String version, LoadRules rules)
                    throws ReleaseException {
                if (!pullspec.equals(retrieved)) return fake.load(pullspec, rules);
                return PayloadLoader.load(
                        jobs.retrieve(pullspec, version), pullspec, rules, w -> {});
            }

            @Override
            public SignatureVerifier.Verified verify(
                    String pullspec, Payload trusted, List<ConfiguredStore> specStores)
                    throws ReleaseException {
                return fake.verify(pullspec, trusted, specStores);
            }
        };
    }

    @Test
    void
            whileTheJobIsPendingReleaseAcceptedIsUnknownAndProgressingWorksTowardsTheTargetInPlaceOfAnEarlierRefusal()
                    throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir.resolve("releases"))) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String wrong =
                    h.payloads.release(
                            "4.1.5", "4.1.6", true); // its payload says it is another version
            String b = h.payloads.release("4.1.1", "4.1.1", true);
            Path node = dir.resolve("node-payloads");
            h.startWith(
                    ControllerHarness.options(a, dir.resolve("cache")),
                    (client, egress) ->
                            throughJobs(
                                    h.payloads,
                                    b,
                                    new PayloadJobs(
                                            client,
                                            "openshift-cluster-version",
                                            "node-0",
                                            node,
                                            Duration.ofSeconds(60),
                                            null)));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));

            h.requestUpdate("4.1.5", wrong, false);
            await("refused")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> h.condition("ReleaseAccepted"),
                            c -> "False".equals(c.getStatus()));

            h.requestUpdate("4.1.1", b, false);
            String name = PayloadJobs.name("4.1.1", PayloadJobs.hash(b));
            await("the Job")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.client
                                                    .batch()
                                                    .v1()
                                                    .jobs()
                                                    .inNamespace("openshift-cluster-version")
                                                    .withName(name)
                                                    .get()
                                            != null);
            ClusterOperatorStatusCondition accepted =
                    await("retrieving")
                            .atMost(Duration.ofSeconds(60))
                            .until(
                                    () -> h.condition("ReleaseAccepted"),
                                    c -> "Unknown".equals(c.getStatus()));
            assertThat(accepted.getReason()).isEqualTo("RetrievePayload");
            assertThat(accepted.getMessage())
                    .isEqualTo(
                            "Retrieving and verifying payload version=\"4.1.1\" image=\""
                                    + b
                                    + "\"");
            assertThat(h.condition("Progressing").getStatus()).isEqualTo("True");
            assertThat(h.condition("Progressing").getMessage()).isEqualTo("Working towards 4.1.1");
            assertThat(h.condition("Failing").getStatus()).isEqualTo("False");
            assertThat(h.clusterVersion().getStatus().getHistory().get(0).getVersion())
                    .as("nothing recorded before acceptance")
                    .isEqualTo("4.1.0");
            // written once: the pending Job changes nothing more
            long writes = h.controller.writes();
            // the Job's pending time, during which the controller reads it again (every 5 s)
            String job = "/namespaces/openshift-cluster-version/jobs/" + name;
            int reads = h.controllerRequests(r -> r.path().contains(job)).size();
            await("the pending Job read again")
                    .atMost(Duration.ofMinutes(2))
                    .until(() -> h.controllerRequests(r -> r.path().contains(job)).size() > reads);
            assertThat(h.controller.writes()).isEqualTo(writes);

            // the kubelet copies the payload and the Job succeeds: the update is accepted and goes
            // on
            Path target = node.resolve(PayloadJobs.hash(b));
            copy(dir.resolve("releases/4.1.1"), target);
            h.client
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace("openshift-cluster-version")
                    .withName(name)
                    .editStatus(
                            j -> {
                                j.setStatus(new JobStatusBuilder().withSucceeded(1).build());
                                return j;
                            });
            await("accepted")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () -> h.condition("ReleaseAccepted"),
                            c -> "True".equals(c.getStatus()) && c.getMessage().contains("4.1.1"));
            await("4.1.1 completed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.1"));
        }
    }

    @Test
    void aReleaseAskedForByImageAloneIsRetrievedByAJobNamedAfterTheVersionTheClusterKnowsItBy()
            throws Exception {
        try (ControllerHarness h = new ControllerHarness(dir.resolve("releases"))) {
            String a = h.payloads.release("4.1.0", "4.1.0", true);
            String b = h.payloads.release("4.1.1", "4.1.1", true);
            Path node = dir.resolve("node-payloads");
            // 4.1.0's payload is on the node from its install
            copy(dir.resolve("releases/4.1.0"), node.resolve(PayloadJobs.hash(a)));
            h.startWith(
                    ControllerHarness.options(a, dir.resolve("cache")),
                    (client, egress) ->
                            throughJobs(
                                    h.payloads,
                                    a,
                                    new PayloadJobs(
                                            client,
                                            "openshift-cluster-version",
                                            "node-0",
                                            node,
                                            Duration.ofSeconds(60),
                                            null)));
            await("4.1.0 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
            h.requestUpdate("4.1.1", b, false);
            await("4.1.1 installed")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.1"));

            // its payload since removed from the node, 4.1.0 asked for again by its image alone:
            // history knows its version
            try (var files = Files.walk(node.resolve(PayloadJobs.hash(a)))) {
                for (Path p : files.sorted(java.util.Comparator.reverseOrder()).toList())
                    Files.delete(p);
            }
            h.requestUpdate(null, a, false);
            String name = PayloadJobs.name("4.1.0", PayloadJobs.hash(a));
            assertThat(name).isEqualTo("version-4.1.0-" + PayloadJobs.hash(a));
            await("the Job named after 4.1.0")
                    .atMost(Duration.ofSeconds(60))
                    .until(
                            () ->
                                    h.client
                                                    .batch()
                                                    .v1()
                                                    .jobs()
                                                    .inNamespace("openshift-cluster-version")
                                                    .withName(name)
                                                    .get()
                                            != null);
            copy(dir.resolve("releases/4.1.0"), node.resolve(PayloadJobs.hash(a)));
            h.client
                    .batch()
                    .v1()
                    .jobs()
                    .inNamespace("openshift-cluster-version")
                    .withName(name)
                    .editStatus(
                            j -> {
                                j.setStatus(new JobStatusBuilder().withSucceeded(1).build());
                                return j;
                            });
            await("rolled back to 4.1.0")
                    .atMost(Duration.ofSeconds(60))
                    .until(() -> h.completed("4.1.0"));
        }
    }

    private static void copy(Path from, Path to) throws Exception {
        try (var walk = Files.walk(from)) {
            for (Path p : walk.sorted().toList()) {
                Path t = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) Files.createDirectories(t);
                else Files.copy(p, t);
            }
        }
    }
}
