package io.upshift.testkit;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.apps.DeploymentCondition;
import io.fabric8.kubernetes.api.model.apps.DeploymentStatus;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.Resource;
import io.fabric8.kubernetes.client.dsl.base.PatchContext;
import io.fabric8.kubernetes.client.dsl.base.PatchType;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import io.fabric8.openshift.api.model.config.v1.ClusterOperator;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatus;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.OperandVersion;
import io.upshift.api.json.Mappers;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Stream;

/**
 * What the kubelets, controllers and operators of a real cluster would do, for the embedded API
 * server (which runs none of them): CRDs become Established; a Deployment whose release version
 * changes rolls out after a simulated delay (any change of its spec does); an operator whose
 * Deployment rolled out reports that version on its ClusterOperator. Operators of a real payload,
 * which carry no such link, report the versions the payload declares for them ({@link
 * #declaredOperators}). {@code onSelfUpdate} is called with the controller's own Deployment as soon
 * as it changes: Kubernetes replaces its pod with one of that Deployment's pod template at once
 * (strategy Recreate), and nothing else; that Deployment has rolled out once its simulated delay
 * has passed and its new pod is ready ({@link #selfReadyWhen}). Changes of Deployments and Jobs are
 * watched, as the Deployment and Job controllers watch them, and a rollout ends when it is due, not
 * at the next poll.
 */
public final class SimulatedCluster implements AutoCloseable {
    /**
     * A Deployment's label naming the ClusterOperator it runs: its operator reports once the
     * Deployment rolled out.
     */
    public static final String OPERATOR_LABEL = "upshift.io/cluster-operator";

    /**
     * A Deployment's annotation naming the release version its operator reports once rolled out.
     */
    public static final String VERSION_ANNOTATION = "upshift.io/release-version";

    /** The namespace of the cluster-version operator's own Deployment, Upshift's as OpenShift's. */
    private static final String SELF = "openshift-cluster-version";

    private final KubernetesClient client;
    private final Duration delay;
    private final Random random;
    private final Clock clock;
    private final Consumer<Deployment> onSelfUpdate;
    private final Map<String, Instant> rolloutDue = new ConcurrentHashMap<>();
    private final Map<String, String> rolledOut = new ConcurrentHashMap<>();
    private final Map<String, Long> delayMillis = new ConcurrentHashMap<>();
    private final Set<String> degraded = ConcurrentHashMap.newKeySet();
    private final Map<String, String> operatorVersion = new ConcurrentHashMap<>();
    private final Map<String, Consumer<String>> handedOver = new ConcurrentHashMap<>();
    private volatile Function<String, Map<String, Map<String, String>>> declared = v -> Map.of();
    private volatile Function<String, Duration> rolloutTimes = operator -> null;
    private volatile Predicate<String> reached = operator -> true;
    private volatile PayloadUnpacker unpacker;
    private final Set<String> jobsRun = ConcurrentHashMap.newKeySet();

    /** The pod run for each payload Job (namespace/name/uid), deleted with its Job. */
    private final Map<String, String> jobPods = new ConcurrentHashMap<>();

    /**
     * What the kubelet does with a payload Job's image: unpack its file system (at least its
     * payload directories, {@code manifests/} and {@code release-manifests/}) into {@code to}
     * (absent); throws when it cannot pull it.
     */
    public interface PayloadUnpacker {
        void unpack(String image, Path to) throws Exception;
    }

    private final Map<String, Instant> levelDue = new ConcurrentHashMap<>();
    private final Thread thread;
    private volatile boolean stopped;
    private volatile Predicate<Deployment> selfReady = d -> true;

    /** The earliest rollout due after the last tick; null when none is. */
    private volatile Instant nextDue;

    /** Set when a watched object changed since the last tick. */
    private boolean changed;

    private final Object wake = new Object();
    private final List<SharedIndexInformer<?>> watches = new ArrayList<>();

    public SimulatedCluster(
            KubernetesClient client,
            Duration delay,
            long seed,
            Clock clock,
            Consumer<Deployment> onSelfUpdate) {
        this.client = client;
        this.delay = delay;
        this.random = new Random(seed);
        this.clock = clock;
        this.onSelfUpdate = onSelfUpdate;
        this.thread = new Thread(this::run, "simulated-cluster");
        this.thread.setDaemon(true);
    }

    /**
     * {@code operator}'s ClusterOperator is reported by a real controller, not by the simulation:
     * each time its Deployment rolls out, {@code onRollout} gets the version rolled out (to start
     * that release's controller).
     */
    public SimulatedCluster handOver(String operator, Consumer<String> onRollout) {
        handedOver.put(operator, onRollout);
        return this;
    }

    /**
     * The operators of a real payload: once the cluster works towards a release ({@code
     * status.desired} of the ClusterVersion), each ClusterOperator that release declares reports
     * the versions it declares (operand name to version), a simulated rollout delay later,
     * Available and not Degraded.
     */
    public SimulatedCluster declaredOperators(
            Function<String, Map<String, Map<String, String>>> byRelease) {
        this.declared = byRelease;
        return this;
    }

    /**
     * How long each operator's rollout takes, by the name of its ClusterOperator (its Deployment's
     * {@value #OPERATOR_LABEL}, or a real payload's declared operator), instead of a random 0.5 to
     * 1.5 times the delay; null for an operator keeps the random draw. A rehearsal gives each
     * operator the time its run-level took.
     */
    public SimulatedCluster rolloutTimes(Function<String, Duration> byOperator) {
        this.rolloutTimes = byOperator;
        return this;
    }

    /**
     * A real payload's declared operator starts rolling out only once {@code reached} says the
     * cluster-version controller got to it (its run-level started), as an operator rolls out when
     * its manifests change; by default as soon as the cluster works towards the release.
     */
    public SimulatedCluster declaredOperatorsStartWhen(Predicate<String> reached) {
        this.reached = reached;
        return this;
    }

    /** The rollout delay of {@code operator} (null: none known): fixed, or drawn at random. */
    private long delayMillis(String operator) {
        Duration fixed = operator == null ? null : rolloutTimes.apply(operator);
        return fixed != null
                ? fixed.toMillis()
                : (long) (delay.toMillis() * (0.5 + random.nextDouble()));
    }

    /**
     * Payload-retrieval Jobs (labelled {@code upshift.io/payload-retrieval}) run as a kubelet would
     * run them: their containers run in order on the image's file system ({@code unpack}) and the
     * Job's hostPath volumes, and the Job succeeds or fails as they exit; an image that cannot be
     * pulled leaves its pod waiting with ErrImagePull, as a container runtime reports it.
     */
    public SimulatedCluster runsPayloadJobs(PayloadUnpacker unpack) {
        this.unpacker = unpack;
        return this;
    }

    /**
     * The controller's own Deployment has rolled out only once {@code ready} says its new pod is
     * ready, as the kubelet's readiness probe tells the Deployment controller; by default at once.
     */
    public SimulatedCluster selfReadyWhen(Predicate<Deployment> ready) {
        this.selfReady = ready;
        return this;
    }

    public SimulatedCluster start() {
        ResourceEventHandler<HasMetadata> wakeUp =
                new ResourceEventHandler<>() {
                    @Override
                    public void onAdd(HasMetadata o) {
                        changed();
                    }

                    @Override
                    public void onUpdate(HasMetadata before, HasMetadata o) {
                        changed();
                    }

                    @Override
                    public void onDelete(HasMetadata o, boolean unknown) {
                        changed();
                    }
                };
        watches.add(client.apps().deployments().inAnyNamespace().inform(wakeUp));
        watches.add(
                client.batch()
                        .v1()
                        .jobs()
                        .inAnyNamespace()
                        .withLabel("upshift.io/payload-retrieval", "true")
                        .inform(wakeUp));
        thread.start();
        return this;
    }

    /** A watched object changed: the next tick runs now. */
    private void changed() {
        synchronized (wake) {
            changed = true;
            wake.notifyAll();
        }
    }

    private void run() {
        while (!stopped) {
            try {
                tick();
            } catch (KubernetesClientException e) {
                // the embedded server is shared with the controller; try again on the next tick
            }
            try {
                waitForWork();
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /**
     * Until a watched object changes, a rollout is due, or 100 ms pass (for what is not watched:
     * CRDs, ClusterOperators, the controller's pod getting ready).
     */
    private void waitForWork() throws InterruptedException {
        long ms = 100;
        Instant due = nextDue;
        if (due != null)
            ms = Math.max(0, Math.min(ms, Duration.between(clock.instant(), due).toMillis()));
        synchronized (wake) {
            if (!changed && ms > 0) wake.wait(ms);
            changed = false;
        }
    }

    void tick() {
        establishCrds();
        keepReporting();
        Instant now = clock.instant();
        Instant soonest = levelDeclared(now);
        runPayloadJobs();
        for (Deployment d : client.apps().deployments().inAnyNamespace().list().getItems()) {
            String key = d.getMetadata().getNamespace() + "/" + d.getMetadata().getName();
            String version =
                    d.getMetadata().getAnnotations() == null
                            ? ""
                            : d.getMetadata().getAnnotations().getOrDefault(VERSION_ANNOTATION, "");
            String image = d.getSpec().getTemplate().getSpec().getContainers().get(0).getImage();
            String want = version + " " + image + " " + d.getMetadata().getGeneration();
            if (want.equals(rolledOut.get(key))) continue;
            String operator =
                    d.getMetadata().getLabels() == null
                            ? null
                            : d.getMetadata().getLabels().get(OPERATOR_LABEL);
            Instant due = rolloutDue.get(key + " " + want);
            boolean self =
                    SELF.equals(d.getMetadata().getNamespace()) && rolledOut.containsKey(key);
            if (due == null) {
                long ms = delayMillis(operator);
                delayMillis.put(key + " " + version, ms);
                due = now.plusMillis(ms);
                rolloutDue.put(key + " " + want, due);
                if (operator != null
                        && rolledOut.containsKey(key)
                        && !handedOver.containsKey(operator)) progressing(operator, version);
                // Recreate: the old pod is stopped and the new one started as the change is seen
                if (self) onSelfUpdate.accept(d);
            }
            if (now.isBefore(due)) {
                soonest = soonest == null || due.isBefore(soonest) ? due : soonest;
                continue;
            }
            if (self && !selfReady.test(d)) continue;
            markAvailable(d);
            rolledOut.put(key, want);
            if (operator != null && handedOver.containsKey(operator)) {
                handedOver.get(operator).accept(version);
            } else if (operator != null) {
                operatorVersion.put(operator, version);
                report(operator, version);
            }
        }
        nextDue = soonest;
    }

    /**
     * Runs each new payload-retrieval Job once, as the Job controller and the kubelet of its node
     * would: one pod ({@code <job>-<5 letters>}, owned by the Job) whose containers run in order
     * ({@link JobPodRun}) on the image's file system, unpacked by the {@link PayloadUnpacker}, and
     * the Job's hostPath volumes. The Job then succeeds, or fails as after its last retry (a step
     * fails the same way each time). An image that cannot be pulled leaves the pod Pending, its
     * first init container waiting with ErrImagePull. The pods of a deleted Job are deleted with
     * it, as the garbage collector does.
     */
    private void runPayloadJobs() {
        if (unpacker == null) return;
        Set<String> present = new HashSet<>();
        for (Job job :
                client.batch()
                        .v1()
                        .jobs()
                        .inAnyNamespace()
                        .withLabel("upshift.io/payload-retrieval", "true")
                        .list()
                        .getItems()) {
            String key =
                    job.getMetadata().getNamespace()
                            + "/"
                            + job.getMetadata().getName()
                            + "/"
                            + job.getMetadata().getUid();
            present.add(key);
            if (!jobsRun.add(key)) continue;
            jobPods.put(key, job.getMetadata().getName() + "-" + suffix());
            runPayloadJob(job, jobPods.get(key));
        }
        for (String key : List.copyOf(jobPods.keySet())) {
            if (present.contains(key)) continue;
            client.pods()
                    .inNamespace(key.substring(0, key.indexOf('/')))
                    .withName(jobPods.remove(key))
                    .delete();
        }
    }

    private void runPayloadJob(Job job, String podName) {
        String ns = job.getMetadata().getNamespace();
        PodSpec spec = job.getSpec().getTemplate().getSpec();
        var jobs = client.batch().v1().jobs().inNamespace(ns).withName(job.getMetadata().getName());
        PodBuilder pod =
                new PodBuilder()
                        .withNewMetadata()
                        .withName(podName)
                        .withNamespace(ns)
                        .addToLabels(job.getSpec().getTemplate().getMetadata().getLabels())
                        .addToLabels("job-name", job.getMetadata().getName())
                        .addToLabels("batch.kubernetes.io/job-name", job.getMetadata().getName())
                        .addNewOwnerReference()
                        .withApiVersion("batch/v1")
                        .withKind("Job")
                        .withName(job.getMetadata().getName())
                        .withUid(job.getMetadata().getUid())
                        .withController(true)
                        .withBlockOwnerDeletion(true)
                        .endOwnerReference()
                        .endMetadata()
                        .withSpec(spec);
        String image =
                (spec.getInitContainers() == null || spec.getInitContainers().isEmpty()
                                ? spec.getContainers()
                                : spec.getInitContainers())
                        .get(0)
                        .getImage();
        Path work = null;
        try {
            work = Files.createTempDirectory("simulated-image-");
            for (Volume v : spec.getVolumes() == null ? List.<Volume>of() : spec.getVolumes()) {
                if (v.getHostPath() != null
                        && "DirectoryOrCreate".equals(v.getHostPath().getType())) {
                    Files.createDirectories(Path.of(v.getHostPath().getPath()));
                }
            }
            Path root = work.resolve("rootfs");
            try {
                unpacker.unpack(image, root);
            } catch (Exception e) {
                String first =
                        spec.getInitContainers() == null || spec.getInitContainers().isEmpty()
                                ? spec.getContainers().get(0).getName()
                                : spec.getInitContainers().get(0).getName();
                client.pods()
                        .inNamespace(ns)
                        .resource(
                                pod.withNewStatus()
                                        .withPhase("Pending")
                                        .addNewInitContainerStatus()
                                        .withName(first)
                                        .withImage(image)
                                        .withNewState()
                                        .withNewWaiting()
                                        .withReason("ErrImagePull")
                                        .withMessage(image + ": " + e.getMessage())
                                        .endWaiting()
                                        .endState()
                                        .endInitContainerStatus()
                                        .endStatus()
                                        .build())
                        .create();
                return;
            }
            JobPodRun.Result result = new JobPodRun(spec, root).run();
            client.pods()
                    .inNamespace(ns)
                    .resource(
                            pod.withNewStatus()
                                    .withPhase(result.succeeded() ? "Succeeded" : "Failed")
                                    .withInitContainerStatuses(result.initContainers())
                                    .withContainerStatuses(result.containers())
                                    .endStatus()
                                    .build())
                    .create();
            String now = clock.instant().toString();
            patchStatus(
                    jobs,
                    result.succeeded()
                            ? Map.of(
                                    "succeeded",
                                    1,
                                    "conditions",
                                    List.of(
                                            Map.of(
                                                    "type",
                                                    "Complete",
                                                    "status",
                                                    "True",
                                                    "lastTransitionTime",
                                                    now)))
                            : Map.of(
                                    "failed",
                                    1,
                                    "conditions",
                                    List.of(
                                            Map.of(
                                                    "type",
                                                    "Failed",
                                                    "status",
                                                    "True",
                                                    "reason",
                                                    "BackoffLimitExceeded",
                                                    "message",
                                                    "Job has reached the specified backoff limit",
                                                    "lastTransitionTime",
                                                    now))));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            if (work != null) deleteTree(work);
        }
    }

    private String suffix() {
        String alphabet = "bcdfghjklmnpqrstvwxz2456789";
        StringBuilder b = new StringBuilder();
        synchronized (random) {
            for (int i = 0; i < 5; i++)
                b.append(alphabet.charAt(random.nextInt(alphabet.length())));
        }
        return b.toString();
    }

    private static void deleteTree(Path dir) {
        try (Stream<Path> walk = Files.walk(dir)) {
            for (Path p : walk.sorted(Comparator.reverseOrder()).toList()) Files.deleteIfExists(p);
        } catch (IOException e) {
            // a temporary directory: left for the system to clean
        }
    }

    /** Reports the declared operators that are due; returns the next one due, or null. */
    private Instant levelDeclared(Instant now) {
        ClusterVersion cv = client.resources(ClusterVersion.class).withName("version").get();
        if (cv == null || cv.getStatus() == null || cv.getStatus().getDesired() == null)
            return null;
        String release = cv.getStatus().getDesired().getVersion();
        Map<String, Map<String, String>> want =
                release == null ? Map.of() : declared.apply(release);
        if (want == null || want.isEmpty()) return null;
        Instant soonest = null;
        for (ClusterOperator co : client.resources(ClusterOperator.class).list().getItems()) {
            Map<String, String> versions = want.get(co.getMetadata().getName());
            if (versions == null || versions.equals(reported(co))) continue;
            if (!reached.test(co.getMetadata().getName())) continue;
            Instant due =
                    levelDue.computeIfAbsent(
                            co.getMetadata().getName() + " " + release,
                            k -> now.plusMillis(delayMillis(co.getMetadata().getName())));
            if (!now.isBefore(due)) report(co.getMetadata().getName(), versions);
            else if (soonest == null || due.isBefore(soonest)) soonest = due;
        }
        return soonest;
    }

    private static Map<String, String> reported(ClusterOperator co) {
        Map<String, String> out = new LinkedHashMap<>();
        if (co.getStatus() != null && co.getStatus().getVersions() != null) {
            for (OperandVersion v : co.getStatus().getVersions())
                out.put(v.getName(), v.getVersion());
        }
        return out;
    }

    /**
     * Operators keep reporting, as real ones do: one whose ClusterOperator appeared late, or was
     * reset, reports again.
     */
    private void keepReporting() {
        for (ClusterOperator co : client.resources(ClusterOperator.class).list().getItems()) {
            String want = operatorVersion.get(co.getMetadata().getName());
            if (want == null) continue;
            boolean reported =
                    co.getStatus() != null
                            && co.getStatus().getVersions() != null
                            && co.getStatus().getVersions().stream()
                                    .anyMatch(v -> want.equals(v.getVersion()));
            if (!reported) report(co.getMetadata().getName(), want);
        }
    }

    /**
     * How long the simulation took to roll out Deployment {@code namespace/name} to {@code
     * version}, if it did.
     */
    public Duration rollout(String namespace, String name, String version) {
        return Duration.ofMillis(
                delayMillis.getOrDefault(namespace + "/" + name + " " + version, 0L));
    }

    private void markAvailable(Deployment d) {
        DeploymentStatus s = new DeploymentStatus();
        long generation =
                d.getMetadata().getGeneration() == null ? 0 : d.getMetadata().getGeneration();
        s.setObservedGeneration(generation);
        int replicas = d.getSpec().getReplicas() == null ? 1 : d.getSpec().getReplicas();
        s.setReplicas(replicas);
        s.setUpdatedReplicas(replicas);
        s.setReadyReplicas(replicas);
        s.setAvailableReplicas(replicas);
        DeploymentCondition available = new DeploymentCondition();
        available.setType("Available");
        available.setStatus("True");
        available.setReason("MinimumReplicasAvailable");
        available.setLastTransitionTime(clock.instant().toString());
        s.setConditions(List.of(available));
        patchStatus(
                client.apps()
                        .deployments()
                        .inNamespace(d.getMetadata().getNamespace())
                        .withName(d.getMetadata().getName()),
                s);
    }

    /** From now on {@code operator} reports Degraded=True whenever it reports. */
    public void degrade(String operator) {
        degraded.add(operator);
    }

    /** The operator starts rolling out: Progressing=True, still at its old version. */
    private void progressing(String operator, String version) {
        ClusterOperator co = client.resources(ClusterOperator.class).withName(operator).get();
        if (co == null || co.getStatus() == null || co.getStatus().getConditions() == null) return;
        ClusterOperatorStatus s = co.getStatus();
        String now = clock.instant().toString();
        List<ClusterOperatorStatusCondition> conditions = new ArrayList<>();
        for (ClusterOperatorStatusCondition c : s.getConditions()) {
            conditions.add(
                    "Progressing".equals(c.getType())
                            ? condition(
                                    "Progressing",
                                    "True",
                                    "RollingOut",
                                    "Rolling out " + version,
                                    now)
                            : c);
        }
        s.setConditions(conditions);
        patchStatus(client.resources(ClusterOperator.class).withName(operator), s);
    }

    private void report(String operator, String version) {
        report(operator, Map.of("operator", version));
    }

    private void report(String operator, Map<String, String> versions) {
        ClusterOperator co = client.resources(ClusterOperator.class).withName(operator).get();
        if (co == null) return;
        ClusterOperatorStatus s = new ClusterOperatorStatus();
        String now = clock.instant().toString();
        List<ClusterOperatorStatusCondition> conditions = new ArrayList<>();
        conditions.add(condition("Available", "True", "AsExpected", "", now));
        conditions.add(condition("Progressing", "False", "AsExpected", "", now));
        boolean bad = degraded.contains(operator);
        conditions.add(
                bad
                        ? condition(
                                "Degraded",
                                "True",
                                "SimulatedFault",
                                "the simulation degraded " + operator,
                                now)
                        : condition("Degraded", "False", "AsExpected", "", now));
        conditions.add(condition("Upgradeable", "True", "AsExpected", "", now));
        s.setConditions(conditions);
        List<OperandVersion> operands = new ArrayList<>();
        versions.forEach(
                (name, version) -> {
                    OperandVersion v = new OperandVersion();
                    v.setName(name);
                    v.setVersion(version);
                    operands.add(v);
                });
        s.setVersions(operands);
        patchStatus(client.resources(ClusterOperator.class).withName(operator), s);
    }

    /**
     * A JSON patch of the status subresource alone, as a controller writes status: spec is never
     * touched.
     */
    private static void patchStatus(Resource<?> resource, Object status) {
        String body =
                "[{\"op\":\"add\",\"path\":\"/status\",\"value\":"
                        + JSON.valueToTree(status)
                        + "}]";
        resource.subresource("status").patch(PatchContext.of(PatchType.JSON), body);
    }

    private static final ObjectMapper JSON = Mappers.JSON;

    private static ClusterOperatorStatusCondition condition(
            String type, String status, String reason, String message, String at) {
        ClusterOperatorStatusCondition c = new ClusterOperatorStatusCondition();
        c.setType(type);
        c.setStatus(status);
        c.setReason(reason);
        if (!message.isEmpty()) c.setMessage(message);
        c.setLastTransitionTime(at);
        return c;
    }

    private void establishCrds() {
        ResourceDefinitionContext ctx =
                new ResourceDefinitionContext.Builder()
                        .withGroup("apiextensions.k8s.io")
                        .withVersion("v1")
                        .withKind("CustomResourceDefinition")
                        .withPlural("customresourcedefinitions")
                        .withNamespaced(false)
                        .build();
        for (GenericKubernetesResource crd :
                client.genericKubernetesResources(ctx).list().getItems()) {
            Object status = crd.getAdditionalProperties().get("status");
            if (status != null && status.toString().contains("Established")) continue;
            patchStatus(
                    client.genericKubernetesResources(ctx).withName(crd.getMetadata().getName()),
                    Map.of(
                            "conditions",
                            List.of(
                                    Map.of(
                                            "type",
                                            "Established",
                                            "status",
                                            "True",
                                            "lastTransitionTime",
                                            clock.instant().toString()))));
        }
    }

    @Override
    public void close() {
        stopped = true;
        watches.forEach(SharedIndexInformer::close);
        thread.interrupt();
        try {
            thread.join(5000); // its client is closed next: a tick still under way would fail on it
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
