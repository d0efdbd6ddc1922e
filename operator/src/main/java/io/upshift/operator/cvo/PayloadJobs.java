package io.upshift.operator.cvo;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import io.upshift.core.payload.PayloadLoader;
import io.upshift.core.release.Reason;
import io.upshift.core.release.ReleaseException;
import io.upshift.core.release.ReleaseMetadata;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Payload retrieval as the mission describes it: a Job {@code version-<version>-<hash>} in the controller's namespace
 * runs the target release image itself, on the controller's node, so that the node's container runtime pulls it
 * (with the node's pull secret, mirrors and proxy); the image, built on Upshift's, copies its payload
 * ({@code upshift release copy-payload}) into a host directory the controller mounts at the same path. The Job is
 * watched until it succeeds, fails, or its pod cannot pull the image (named with the runtime's reason and message),
 * for at most the timeout; Jobs of earlier retrievals are deleted when a new one starts.
 *
 * @param namespace where the Jobs run: the controller's
 * @param node      the node the controller runs on (the host directory is that node's)
 * @param dir       the host directory, mounted at the same path by the controller and by each Job
 * @param own       the release the controller runs and where its image holds that release's payload (its root), as
 *                  upstream reads its own payload from its own image; null when it does not run from a release image
 */
record PayloadJobs(KubernetesClient client, String namespace, String node, Path dir, Duration timeout, OwnPayload own) {

    /** The controller's own release and the directory of its image that holds its payload. */
    record OwnPayload(String image, Path root) {
    }
    private static final Logger LOG = LoggerFactory.getLogger(PayloadJobs.class);
    static final String LABEL = "upshift.io/payload-retrieval";
    /** Waiting reasons of a container that will not start because of its image: the retrieval fails at once. */
    private static final Set<String> IMAGE_FAILURES = Set.of("ErrImagePull", "ImagePullBackOff", "InvalidImageName", "SignatureValidationFailed",
            "ErrImageNeverPull", "RegistryUnavailable");

    /** The directory holding the payload of {@code pullspec}: retrieved by a Job unless an earlier one did already. */
    Path retrieve(String pullspec, String version) throws ReleaseException {
        if (own != null && own.image().equals(pullspec) && isPayload(own.root())) return own.root();
        String hash = hash(pullspec);
        Path target = dir.resolve(hash);
        if (Files.isRegularFile(target.resolve(PayloadLoader.RELEASE_DIR).resolve(ReleaseMetadata.FILE))) return target;
        String name = name(version, hash);
        prune(name);
        try {
            client.batch().v1().jobs().inNamespace(namespace).resource(job(name, pullspec, target)).create();
            LOG.info("job/{}: retrieving the payload of {} on node {} into {}", name, pullspec, node, target);
        } catch (KubernetesClientException e) {
            if (e.getCode() != 409) throw new ReleaseException(Reason.REGISTRY_FAILED, "cannot create the payload-retrieval Job " + name + ": " + e.getMessage(), e);
        }
        await(name);
        if (!Files.isRegularFile(target.resolve(PayloadLoader.RELEASE_DIR).resolve(ReleaseMetadata.FILE))) {
            throw new ReleaseException(Reason.PAYLOAD_NOT_FOUND, "the payload-retrieval Job " + name + " succeeded but " + target
                    + " holds no payload: is the controller on node " + node + " with " + dir + " mounted from the host?");
        }
        return target;
    }

    private static boolean isPayload(Path root) {
        return Files.isRegularFile(root.resolve(PayloadLoader.RELEASE_DIR).resolve(ReleaseMetadata.FILE))
                && Files.isDirectory(root.resolve(PayloadLoader.OPERATOR_DIR));
    }

    /** {@code version-<version>-<hash>}, within a Kubernetes name's 63 characters. */
    static String name(String version, String hash) {
        String v = (version == null || version.isEmpty() ? "unknown" : version).toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        if (v.length() > 63 - 9 - hash.length()) v = v.substring(0, 63 - 9 - hash.length());
        return "version-" + v.replaceAll("[.-]+$", "") + "-" + hash; // each dot-separated part must end alphanumeric
    }

    static String hash(String pullspec) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(pullspec.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 5);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The Job: the release image's entry point runs Upshift, told to copy its payload into the host directory. */
    Job job(String name, String pullspec, Path target) {
        return new JobBuilder().withNewMetadata().withName(name).withNamespace(namespace).addToLabels(LABEL, "true").endMetadata()
                .withNewSpec().withBackoffLimit(2).withActiveDeadlineSeconds(timeout.toSeconds())
                .withNewTemplate().withNewMetadata().addToLabels(LABEL, "true").endMetadata()
                .withNewSpec().withNodeName(node).withRestartPolicy("Never").withAutomountServiceAccountToken(false)
                .addNewToleration().withOperator("Exists").endToleration()
                // root in the pod, to write the host directory the kubelet created
                .withNewSecurityContext().withRunAsUser(0L).endSecurityContext()
                .addNewContainer().withName("payload").withImage(pullspec)
                .withArgs("release", "copy-payload", "--to", target.toString())
                .withNewSecurityContext().withReadOnlyRootFilesystem(true).withAllowPrivilegeEscalation(false).endSecurityContext()
                .withNewResources().addToRequests("cpu", new io.fabric8.kubernetes.api.model.Quantity("10m"))
                .addToRequests("memory", new io.fabric8.kubernetes.api.model.Quantity("64Mi")).endResources()
                .addNewVolumeMount().withName("payloads").withMountPath(dir.toString()).endVolumeMount()
                .addNewVolumeMount().withName("tmp").withMountPath("/tmp").endVolumeMount()
                .endContainer()
                .addNewVolume().withName("payloads").withNewHostPath().withPath(dir.toString()).withType("DirectoryOrCreate").endHostPath().endVolume()
                .addNewVolume().withName("tmp").withNewEmptyDir().endEmptyDir().endVolume()
                .endSpec().endTemplate().endSpec().build();
    }

    /** Waits, watching the Job and its pods, until it succeeds, fails or cannot pull its image; at most the timeout. */
    private void await(String name) throws ReleaseException {
        CompletableFuture<String> outcome = new CompletableFuture<>(); // null: succeeded; else why it failed
        Watcher<Job> onJob = new Watcher<>() {
            @Override
            public void eventReceived(Action action, Job job) {
                if (action == Action.DELETED) outcome.complete("the Job was deleted");
                else judge(job, outcome);
            }

            @Override
            public void onClose(WatcherException cause) {
                outcome.complete("the watch of the Job closed: " + cause.getMessage());
            }
        };
        Watcher<Pod> onPod = new Watcher<>() {
            @Override
            public void eventReceived(Action action, Pod pod) {
                String failure = imageFailure(pod);
                if (failure != null) outcome.complete(failure);
            }

            @Override
            public void onClose(WatcherException cause) {
                // the Job's own watch decides
            }
        };
        try (Watch jobs = client.batch().v1().jobs().inNamespace(namespace).withName(name).watch(onJob);
             Watch pods = client.pods().inNamespace(namespace).withLabel("job-name", name).watch(onPod)) {
            Job now = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
            if (now != null) judge(now, outcome);
            String failure = outcome.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
            if (failure != null) throw new ReleaseException(Reason.REGISTRY_FAILED, "payload-retrieval Job " + namespace + "/" + name + " failed: " + failure);
            LOG.info("job/{}: the payload is retrieved", name);
        } catch (TimeoutException e) {
            throw new ReleaseException(Reason.REGISTRY_FAILED, "payload-retrieval Job " + namespace + "/" + name + " did not complete in "
                    + timeout.toSeconds() + " s" + podStatuses(name));
        } catch (ExecutionException e) {
            throw new ReleaseException(Reason.REGISTRY_FAILED, "payload-retrieval Job " + name + ": " + e.getCause(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReleaseException(Reason.REGISTRY_FAILED, "interrupted while waiting for payload-retrieval Job " + name, e);
        }
    }

    private static void judge(Job job, CompletableFuture<String> outcome) {
        if (job.getStatus() == null) return;
        if (job.getStatus().getSucceeded() != null && job.getStatus().getSucceeded() > 0) outcome.complete(null);
        for (JobCondition c : job.getStatus().getConditions() == null ? List.<JobCondition>of() : job.getStatus().getConditions()) {
            if ("Failed".equals(c.getType()) && "True".equals(c.getStatus())) outcome.complete(c.getReason() + ": " + c.getMessage());
        }
    }

    /** Why a pod cannot start because of its image, as the container runtime says it; null when it can. */
    static String imageFailure(Pod pod) {
        if (pod.getStatus() == null || pod.getStatus().getContainerStatuses() == null) return null;
        for (ContainerStatus s : pod.getStatus().getContainerStatuses()) {
            var waiting = s.getState() == null ? null : s.getState().getWaiting();
            if (waiting != null && IMAGE_FAILURES.contains(waiting.getReason())) {
                return "its pod " + pod.getMetadata().getName() + " cannot pull the release image: " + waiting.getReason()
                        + (waiting.getMessage() == null ? "" : ": " + waiting.getMessage());
            }
        }
        return null;
    }

    private String podStatuses(String name) {
        List<String> out = new ArrayList<>();
        try {
            for (Pod p : client.pods().inNamespace(namespace).withLabel("job-name", name).list().getItems()) {
                out.add(p.getMetadata().getName() + " " + (p.getStatus() == null ? "?" : p.getStatus().getPhase()));
            }
        } catch (KubernetesClientException e) {
            out.add("pods unreadable: " + e.getMessage());
        }
        return out.isEmpty() ? " (no pod was started)" : " (" + String.join(", ", out) + ")";
    }

    /** Deletes the Jobs of earlier retrievals (and their pods), but {@code keep}. */
    private void prune(String keep) {
        try {
            for (Job j : client.batch().v1().jobs().inNamespace(namespace).withLabel(LABEL, "true").list().getItems()) {
                if (keep.equals(j.getMetadata().getName())) continue;
                client.batch().v1().jobs().inNamespace(namespace).withName(j.getMetadata().getName())
                        .withPropagationPolicy(io.fabric8.kubernetes.api.model.DeletionPropagation.BACKGROUND).delete();
                LOG.info("job/{}: deleted, a payload retrieval of the past", j.getMetadata().getName());
            }
        } catch (KubernetesClientException e) {
            LOG.warn("cannot prune the payload-retrieval Jobs of {}: {}", namespace, e.getMessage());
        }
    }
}
