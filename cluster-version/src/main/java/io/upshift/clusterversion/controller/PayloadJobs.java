package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerBuilder;
import io.fabric8.kubernetes.api.model.DeletionPropagation;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobBuilder;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.upshift.clusterversion.model.History;
import io.upshift.releases.metadata.Reason;
import io.upshift.releases.metadata.ReleaseException;
import io.upshift.releases.metadata.ReleaseMetadata;
import io.upshift.releases.payload.PayloadCache;
import io.upshift.releases.payload.PayloadLoader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Payload retrieval as upstream's cluster-version operator does it: a Job {@code
 * version-<version>-<hash>} in the controller's namespace runs the target release image itself, on
 * the controller's node, so that the node's container runtime pulls it (with the node's pull
 * secret, mirrors and proxy), and the image's own tools copy its payload ({@code /manifests},
 * {@code /release-manifests}) into a host directory the controller mounts at the same path. Any
 * release image with a shell's basic tools works, OpenShift's as Upshift's. The Job's steps, as
 * upstream's:
 *
 * <ol>
 *   <li>{@code cleanup}: {@code rm -fR} of this retrieval's partial copy (an earlier pod of the Job
 *       may have left one) and of the stale entries of the cache (partial copies, releases neither
 *       running nor desired). Upstream empties the whole directory ({@code rm -fR ./*}); the
 *       entries are named here instead, so that a directory shared with anything else, or the
 *       payload of the release the cluster runs, is never touched;
 *   <li>{@code make-temporary-directory}, then a {@code cp -r} of each payload directory into it
 *       (copies: the image's root file system is read-only, and a move across file systems would
 *       delete its source);
 *   <li>{@code rename-to-final-location}: {@code mv} of the whole copy to {@code <hash>}, one
 *       rename: the controller sees a release's directory whole or not at all.
 * </ol>
 *
 * The Job is awaited ({@link JobWait}) until it succeeds, fails, or its pod cannot pull the image
 * (named with the runtime's reason and message), for at most the timeout; a Job that did not
 * succeed is deleted, so that the next attempt starts anew; Jobs of earlier retrievals are deleted
 * when a new one starts.
 *
 * @param namespace where the Jobs run: the controller's
 * @param node the node the controller runs on (the host directory is that node's)
 * @param dir the host directory, mounted at the same path by the controller and by each Job
 * @param own the release the controller runs and where its image holds that release's payload (its
 *     root), as upstream reads its own payload from its own image; null when it does not run from a
 *     release image
 */
record PayloadJobs(
        KubernetesClient client,
        String namespace,
        String node,
        Path dir,
        Duration timeout,
        OwnPayload own) {

    /** The controller's own release and the directory of its image that holds its payload. */
    record OwnPayload(String image, Path root) {}

    private static final Logger LOG = LoggerFactory.getLogger(PayloadJobs.class);
    static final String LABEL = "upshift.io/payload-retrieval";
    private static final String VOLUME = "payloads";
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * The directory holding the payload of {@code pullspec}: retrieved by a Job unless an earlier
     * one did already.
     */
    Path retrieve(String pullspec, String version) throws ReleaseException {
        if (own != null && own.image().equals(pullspec) && isPayload(own.root())) return own.root();
        String hash = PayloadCache.hash(pullspec);
        Path target = dir.resolve(hash);
        if (isPayload(target)) return target;
        String name = name(version, hash);
        pruneJobs(name);
        Job existing;
        try {
            existing = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
        } catch (KubernetesClientException e) {
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "cannot read the payload-retrieval Job "
                            + namespace
                            + "/"
                            + name
                            + ": "
                            + e.getMessage(),
                    e);
        }
        if (existing != null && failed(existing)) {
            delete(name, "it failed before; a new one takes its place"); // e.g. left by an earlier
            // leader
            existing = null;
        }
        if (existing == null) {
            try {
                client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .resource(job(name, pullspec, hash, token(), stale(pullspec)))
                        .create();
                LOG.info(
                        "job/{}: retrieving the payload of {} on node {} into {}",
                        name,
                        pullspec,
                        node,
                        target);
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409)
                    throw new ReleaseException(
                            Reason.REGISTRY_FAILED,
                            "cannot create the payload-retrieval Job "
                                    + name
                                    + ": "
                                    + e.getMessage(),
                            e);
            }
        }
        JobWait.Outcome outcome;
        try {
            outcome = new JobWait(client, namespace, name).await(timeout);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "interrupted while waiting for payload-retrieval Job " + name,
                    e);
        }
        if (outcome instanceof JobWait.Outcome.Failed f) {
            delete(name, "the next attempt starts a new one");
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "payload-retrieval Job " + namespace + "/" + name + " failed: " + f.why());
        }
        if (outcome instanceof JobWait.Outcome.TimedOut t) {
            delete(name, "the next attempt starts a new one");
            throw new ReleaseException(
                    Reason.REGISTRY_FAILED,
                    "payload-retrieval Job "
                            + namespace
                            + "/"
                            + name
                            + " did not complete in "
                            + timeout.toSeconds()
                            + " s ("
                            + t.where()
                            + ")");
        }
        LOG.info("job/{}: the payload is retrieved", name);
        if (!isPayload(target)) {
            throw new ReleaseException(
                    Reason.PAYLOAD_NOT_FOUND,
                    "the payload-retrieval Job "
                            + name
                            + " succeeded but "
                            + target
                            + " holds no payload: is the controller on node "
                            + node
                            + " with "
                            + dir
                            + " mounted from the host?");
        }
        return target;
    }

    private static boolean isPayload(Path root) {
        return Files.isRegularFile(
                        root.resolve(PayloadLoader.RELEASE_DIR).resolve(ReleaseMetadata.FILE))
                && Files.isDirectory(root.resolve(PayloadLoader.OPERATOR_DIR));
    }

    /**
     * {@code version-<version>-<hash>}, within a Kubernetes name's 63 characters, as upstream names
     * its Job after the version; {@code version-<hash>} when the version is not known yet (an image
     * asked for alone that the cluster lists nowhere).
     */
    static String name(String version, String hash) {
        if (version == null || version.isEmpty()) return "version-" + hash;
        String v = version.toLowerCase(Locale.ROOT).replaceAll("[^a-z0-9.-]", "-");
        if (v.length() > 63 - 9 - hash.length()) v = v.substring(0, 63 - 9 - hash.length());
        return "version-"
                + v.replaceAll("[.-]+$", "")
                + "-"
                + hash; // each dot-separated part must end alphanumeric
    }

    static String hash(String pullspec) {
        return PayloadCache.hash(pullspec);
    }

    /** Five random letters and digits, as upstream's temporary directory's suffix. */
    private static String token() {
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < 5; i++) b.append(alphabet.charAt(RANDOM.nextInt(alphabet.length())));
        return b.toString();
    }

    /**
     * The Job retrieving {@code pullspec} into {@code <dir>/<hash>} through {@code
     * <dir>/<hash>.partial-<token>}, removing the {@code stale} entries of the cache first.
     */
    Job job(String name, String pullspec, String hash, String token, List<String> stale) {
        String tmp = dir.resolve(PayloadCache.partial(hash, token)).toString();
        List<String> cleanup = new ArrayList<>(List.of("rm", "-fR", tmp));
        stale.forEach(s -> cleanup.add(dir.resolve(s).toString()));
        List<Container> init =
                List.of(
                        step("cleanup", pullspec, cleanup),
                        step("make-temporary-directory", pullspec, List.of("mkdir", tmp)),
                        step(
                                "copy-operator-manifests-to-temporary-directory",
                                pullspec,
                                List.of(
                                        "cp",
                                        "-r",
                                        "/" + PayloadLoader.OPERATOR_DIR,
                                        tmp + "/" + PayloadLoader.OPERATOR_DIR)),
                        step(
                                "copy-release-manifests-to-temporary-directory",
                                pullspec,
                                List.of(
                                        "cp",
                                        "-r",
                                        "/" + PayloadLoader.RELEASE_DIR,
                                        tmp + "/" + PayloadLoader.RELEASE_DIR)));
        return new JobBuilder()
                .withNewMetadata()
                .withName(name)
                .withNamespace(namespace)
                .addToLabels(LABEL, "true")
                .endMetadata()
                .withNewSpec()
                .withBackoffLimit(2)
                .withActiveDeadlineSeconds(timeout.toSeconds())
                .withNewTemplate()
                .withNewMetadata()
                .addToLabels(LABEL, "true")
                // on OpenShift, the privileged SCC, as upstream's pod asks for it
                .addToAnnotations("openshift.io/required-scc", "privileged")
                .endMetadata()
                .withNewSpec()
                .withNodeName(node)
                .withRestartPolicy("Never")
                .withAutomountServiceAccountToken(false)
                .addNewToleration()
                .withOperator("Exists")
                .endToleration()
                // root, to write the host directory the kubelet created (the release image may run
                // as another user)
                .withNewSecurityContext()
                .withRunAsUser(0L)
                .withNewSeccompProfile()
                .withType("RuntimeDefault")
                .endSeccompProfile()
                .endSecurityContext()
                .withInitContainers(init)
                .withContainers(
                        step(
                                "rename-to-final-location",
                                pullspec,
                                List.of("mv", tmp, dir.resolve(hash).toString())))
                .addNewVolume()
                .withName(VOLUME)
                .withNewHostPath()
                .withPath(dir.toString())
                .withType("DirectoryOrCreate")
                .endHostPath()
                .endVolume()
                .endSpec()
                .endTemplate()
                .endSpec()
                .build();
    }

    /**
     * One step: the release image running one of its own tools, with the host directory, as
     * upstream's containers.
     */
    private Container step(String name, String image, List<String> command) {
        return new ContainerBuilder()
                .withName(name)
                .withImage(image)
                .withCommand(command)
                .addNewVolumeMount()
                .withName(VOLUME)
                .withMountPath(dir.toString())
                .endVolumeMount()
                // privileged for the host directory (its SELinux label on a hardened node), as
                // upstream's
                .withNewSecurityContext()
                .withPrivileged(true)
                .withReadOnlyRootFilesystem(true)
                .endSecurityContext()
                .withNewResources()
                .addToRequests("cpu", new Quantity("10m"))
                .addToRequests("memory", new Quantity("50Mi"))
                .addToRequests("ephemeral-storage", new Quantity("2Mi"))
                .endResources()
                .withTerminationMessagePolicy("FallbackToLogsOnError")
                .build();
    }

    /**
     * The entries of the cache the Job removes: partial copies, and the payloads of releases other
     * than {@code pullspec}, the one the cluster works towards and the one it last completed (read
     * from the ClusterVersion now). None when the cluster cannot say which are in use.
     */
    private List<String> stale(String pullspec) {
        List<String> inUse = new ArrayList<>(List.of(pullspec));
        if (own != null) inUse.add(own.image());
        try {
            ClusterVersion cv =
                    client.resources(ClusterVersion.class).withName(ClusterCaches.NAME).get();
            if (cv != null && cv.getStatus() != null) {
                if (cv.getStatus().getDesired() != null)
                    inUse.add(cv.getStatus().getDesired().getImage());
                if (cv.getStatus().getHistory() != null)
                    History.lastCompleted(cv.getStatus().getHistory())
                            .ifPresent(h -> inUse.add(h.getImage()));
            }
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "clusterversion/{}: cannot read which releases are in use ({}); payload"
                            + " directories are not pruned this time",
                    ClusterCaches.NAME,
                    e.getMessage());
            return List.of();
        }
        if (!Files.isDirectory(dir)) return List.of();
        try (Stream<Path> entries = Files.list(dir)) {
            List<String> stale =
                    PayloadCache.stale(
                            entries.map(p -> p.getFileName().toString()).toList(), inUse);
            if (!stale.isEmpty())
                LOG.info(
                        "payload cache {}: the retrieval Job removes {}",
                        dir,
                        String.join(", ", stale));
            return stale;
        } catch (IOException e) {
            LOG.warn(
                    "payload cache {}: cannot list it ({}); payload directories are not pruned this"
                            + " time",
                    dir,
                    e.getMessage());
            return List.of();
        }
    }

    private static boolean failed(Job job) {
        if (job.getStatus() == null || job.getStatus().getConditions() == null) return false;
        for (JobCondition c : job.getStatus().getConditions()) {
            if ("Failed".equals(c.getType()) && "True".equals(c.getStatus())) return true;
        }
        return false;
    }

    private void delete(String name, String next) {
        try {
            client.batch()
                    .v1()
                    .jobs()
                    .inNamespace(namespace)
                    .withName(name)
                    .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                    .delete();
            LOG.info("job/{}: deleted; {}", name, next);
        } catch (KubernetesClientException e) {
            LOG.warn("job/{}: cannot delete it ({}); {}", name, e.getMessage(), next);
        }
    }

    /** Deletes the Jobs of earlier retrievals (and their pods), but {@code keep}. */
    private void pruneJobs(String keep) {
        try {
            for (Job j :
                    client.batch()
                            .v1()
                            .jobs()
                            .inNamespace(namespace)
                            .withLabel(LABEL, "true")
                            .list()
                            .getItems()) {
                if (keep.equals(j.getMetadata().getName())) continue;
                client.batch()
                        .v1()
                        .jobs()
                        .inNamespace(namespace)
                        .withName(j.getMetadata().getName())
                        .withPropagationPolicy(DeletionPropagation.BACKGROUND)
                        .delete();
                LOG.info(
                        "job/{}: deleted, a payload retrieval of the past",
                        j.getMetadata().getName());
            }
        } catch (KubernetesClientException e) {
            LOG.warn(
                    "cannot prune the payload-retrieval Jobs of {}: {}", namespace, e.getMessage());
        }
    }
}
