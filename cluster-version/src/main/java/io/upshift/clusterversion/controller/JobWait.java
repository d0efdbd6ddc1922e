package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.ContainerStatus;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import io.fabric8.kubernetes.api.model.batch.v1.JobCondition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.Watch;
import io.fabric8.kubernetes.client.Watcher;
import io.fabric8.kubernetes.client.WatcherException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Waits for one Job to succeed (or one of its pods to succeed, as the kubelet reports it) or fail,
 * or for its pods to show that they cannot pull their image, the way client-go's reflector keeps a
 * cache: it lists (GET the Job, list its pods), watches both and applies their events; when a watch
 * cannot be opened or closes, it watches anew after a backoff (1 s, doubling to 5 s) and lists
 * again once the watch is open. It also lists every 5 s whatever the watches do, so that a watch
 * that died without a word (a dropped connection the client keeps reconnecting in silence, or a
 * watch the client is still trying to open) costs at most that long. One line is logged per watch
 * failure, naming the Job and what happens next.
 */
final class JobWait {
    private static final Logger LOG = LoggerFactory.getLogger(JobWait.class);
    static final Duration REREAD = Duration.ofSeconds(5);
    static final Duration FIRST_BACKOFF = Duration.ofSeconds(1);
    static final Duration MAX_BACKOFF = Duration.ofSeconds(5);

    /**
     * Waiting reasons of a container that will not start because of its image: the retrieval fails
     * at once.
     */
    static final Set<String> IMAGE_FAILURES =
            Set.of(
                    "ErrImagePull",
                    "ImagePullBackOff",
                    "InvalidImageName",
                    "SignatureValidationFailed",
                    "ErrImageNeverPull",
                    "RegistryUnavailable");

    /** How a wait ended. */
    sealed interface Outcome {
        record Succeeded() implements Outcome {}

        /** The Job failed, was deleted, or its pod cannot pull its image: why, in one line. */
        record Failed(String why) implements Outcome {}

        /** Neither within the time given: where the Job and its pods stood. */
        record TimedOut(String where) implements Outcome {}
    }

    /** What the watches report: an event of one kind, or that a watch (of this round) closed. */
    private sealed interface Signal {
        record JobEvent(Watcher.Action action, Job job) implements Signal {}

        record PodEvent(Watcher.Action action, Pod pod) implements Signal {}

        record Closed(int round, String what, String cause) implements Signal {}

        record Opened(int round, Watch job, Watch pods) implements Signal {
            void close() {
                job.close();
                pods.close();
            }
        }

        record OpenFailed(int round, String cause) implements Signal {}
    }

    private final KubernetesClient client;
    private final String namespace;
    private final String name;
    private final BlockingQueue<Signal> signals = new LinkedBlockingQueue<>();

    /** The cache: the Job as last seen (null: gone), and its pods by name. */
    private Job job;

    private boolean listed;
    private final Map<String, Pod> pods = new LinkedHashMap<>();
    private int round;
    private Watch jobWatch;
    private Watch podWatch;
    private boolean done; // guarded by signals

    JobWait(KubernetesClient client, String namespace, String name) {
        this.client = client;
        this.namespace = namespace;
        this.name = name;
    }

    /** Waits at most {@code timeout}. */
    Outcome await(Duration timeout) throws InterruptedException {
        long now = System.nanoTime(), deadline = now + timeout.toNanos();
        long nextList = now, nextWatch = now, watchedSince = 0;
        Duration listBackoff = FIRST_BACKOFF, watchBackoff = FIRST_BACKOFF;
        boolean opening = false;
        Signal.Closed closedEarly = null;
        ExecutorService opener =
                Executors.newSingleThreadExecutor(
                        r -> {
                            Thread t = new Thread(r, "job-watch-" + name);
                            t.setDaemon(true);
                            return t;
                        });
        try {
            while (true) {
                now = System.nanoTime();
                if (jobWatch == null && !opening && now - nextWatch >= 0) {
                    opening = true;
                    open(opener, ++round);
                }
                if (now - nextList >= 0) {
                    String failure = list();
                    Outcome outcome = listed ? judge() : null;
                    if (outcome != null) return outcome;
                    if (failure != null) {
                        LOG.warn(
                                "job/{}: cannot read the Job and its pods ({}); trying again in {}"
                                        + " ms",
                                name,
                                failure,
                                listBackoff.toMillis());
                        nextList = now + listBackoff.toNanos();
                        listBackoff = min(listBackoff.multipliedBy(2), MAX_BACKOFF);
                    } else {
                        nextList = now + REREAD.toNanos();
                        listBackoff = FIRST_BACKOFF;
                        // a watch that lasted a whole period earns the short backoff again
                        if (jobWatch != null && now - watchedSince >= REREAD.toNanos())
                            watchBackoff = FIRST_BACKOFF;
                    }
                }
                if (now - deadline >= 0) return new Outcome.TimedOut(where());
                long wake = Math.min(nextList - now, deadline - now);
                if (jobWatch == null && !opening) wake = Math.min(wake, nextWatch - now);
                Signal s = signals.poll(Math.max(1, wake), TimeUnit.NANOSECONDS);
                if (s == null) continue;
                now = System.nanoTime();
                if (s instanceof Signal.Opened o) {
                    if (o.round() != round) {
                        o.close();
                        continue;
                    }
                    opening = false;
                    jobWatch = o.job();
                    podWatch = o.pods();
                    watchedSince = now;
                    nextList =
                            now; // what changed before the watches opened is read once more, as a
                    // reflector lists before it watches
                    if (closedEarly != null)
                        signals.add(closedEarly); // it closed before this thread learnt it was open
                    closedEarly = null;
                } else if (s instanceof Signal.OpenFailed f) {
                    if (f.round() != round) continue;
                    opening = false;
                    LOG.warn(
                            "job/{}: cannot watch the Job and its pods ({}); reading them every {}"
                                    + " s, watching again in {} ms",
                            name,
                            f.cause(),
                            REREAD.toSeconds(),
                            watchBackoff.toMillis());
                    nextWatch = now + watchBackoff.toNanos();
                    watchBackoff = min(watchBackoff.multipliedBy(2), MAX_BACKOFF);
                } else if (s instanceof Signal.Closed c) {
                    if (c.round() != round)
                        continue; // a watch of an earlier round, already replaced
                    if (jobWatch == null) {
                        closedEarly = c;
                        continue;
                    }
                    LOG.warn(
                            "job/{}: the watch of {} closed ({}); reading the Job and its pods"
                                    + " again and watching anew in {} ms",
                            name,
                            c.what(),
                            c.cause(),
                            watchBackoff.toMillis());
                    stopWatching();
                    nextWatch = now + watchBackoff.toNanos();
                    nextList = Math.min(nextList, nextWatch);
                    watchBackoff = min(watchBackoff.multipliedBy(2), MAX_BACKOFF);
                } else {
                    apply(s);
                    Outcome outcome = listed ? judge() : null;
                    if (outcome instanceof Outcome.Failed) {
                        // the pods' last statuses (what the failing step said) may not have come
                        // yet: read them
                        list();
                        Outcome again = judge();
                        if (again != null) outcome = again;
                    }
                    if (outcome != null) return outcome;
                }
            }
        } finally {
            synchronized (signals) {
                done = true;
                // watches that opened meanwhile; those opening now are closed by their opener,
                // which sees done
                for (Signal s; (s = signals.poll()) != null; )
                    if (s instanceof Signal.Opened o) o.close();
            }
            stopWatching();
            opener.shutdownNow();
        }
    }

    private static Duration min(Duration a, Duration b) {
        return a.compareTo(b) <= 0 ? a : b;
    }

    /**
     * Opens the watches of round {@code r} on the opener's thread: opening one can take a client's
     * whole request timeout when the server refuses it, and the Job is read meanwhile.
     */
    private void open(ExecutorService opener, int r) {
        opener.execute(
                () -> {
                    Watch jobs = null;
                    try {
                        jobs =
                                client.batch()
                                        .v1()
                                        .jobs()
                                        .inNamespace(namespace)
                                        .withName(name)
                                        .watch(
                                                new Forward<>(
                                                        r,
                                                        "the Job",
                                                        (a, j) ->
                                                                signals.add(
                                                                        new Signal.JobEvent(
                                                                                a, j))));
                        Watch pods =
                                client.pods()
                                        .inNamespace(namespace)
                                        .withLabel("job-name", name)
                                        .watch(
                                                new Forward<>(
                                                        r,
                                                        "its pods",
                                                        (a, p) ->
                                                                signals.add(
                                                                        new Signal.PodEvent(
                                                                                a, p))));
                        Signal.Opened opened = new Signal.Opened(r, jobs, pods);
                        synchronized (signals) {
                            if (done) opened.close();
                            else signals.add(opened);
                        }
                    } catch (RuntimeException e) {
                        LOG.debug("job/{}: watch refused", name, e);
                        if (jobs != null) jobs.close();
                        signals.add(
                                new Signal.OpenFailed(
                                        r,
                                        e instanceof KubernetesClientException k
                                                ? oneLine(k)
                                                : e.toString()));
                    }
                });
    }

    private void stopWatching() {
        for (Watch w : new Watch[] {jobWatch, podWatch}) {
            if (w == null) continue;
            try {
                w.close();
            } catch (RuntimeException e) {
                LOG.debug("job/{}: closing a watch", name, e);
            }
        }
        jobWatch = null;
        podWatch = null;
    }

    /** Reads the Job and its pods into the cache; the failure in one line, or null. */
    private String list() {
        try {
            Job now = client.batch().v1().jobs().inNamespace(namespace).withName(name).get();
            List<Pod> items =
                    client.pods()
                            .inNamespace(namespace)
                            .withLabel("job-name", name)
                            .list()
                            .getItems();
            job = now;
            pods.clear();
            for (Pod p : items) pods.put(p.getMetadata().getName(), p);
            listed = true;
            return null;
        } catch (KubernetesClientException e) {
            LOG.debug("job/{}: list failed", name, e);
            return oneLine(e);
        }
    }

    private void apply(Signal s) {
        if (s instanceof Signal.JobEvent e) {
            job = e.action() == Watcher.Action.DELETED ? null : e.job();
            listed = true;
        } else if (s instanceof Signal.PodEvent e) {
            if (e.action() == Watcher.Action.DELETED) pods.remove(e.pod().getMetadata().getName());
            else pods.put(e.pod().getMetadata().getName(), e.pod());
        }
    }

    /** The outcome the cache shows; null while the Job still runs. */
    private Outcome judge() {
        if (job == null) return new Outcome.Failed("the Job was deleted");
        if (job.getStatus() != null) {
            if (job.getStatus().getSucceeded() != null && job.getStatus().getSucceeded() > 0)
                return new Outcome.Succeeded();
            for (JobCondition c :
                    job.getStatus().getConditions() == null
                            ? List.<JobCondition>of()
                            : job.getStatus().getConditions()) {
                if ("Failed".equals(c.getType()) && "True".equals(c.getStatus())) {
                    String pods = terminations();
                    return new Outcome.Failed(
                            c.getReason()
                                    + ": "
                                    + c.getMessage()
                                    + (pods.isEmpty() ? "" : "; " + pods));
                }
            }
        }
        for (Pod p : pods.values()) {
            String failure = imageFailure(p);
            if (failure != null) return new Outcome.Failed(failure);
            // the kubelet's word that every container of this Job's pod exited 0 is the Job's
            // success: the Job controller counts it a second or two later (it batches its syncs)
            if (ownPod(p) && p.getStatus() != null && "Succeeded".equals(p.getStatus().getPhase()))
                return new Outcome.Succeeded();
        }
        return null;
    }

    /** A pod of this Job (not of an earlier Job of the same name whose pods linger). */
    private boolean ownPod(Pod p) {
        String uid = job.getMetadata() == null ? null : job.getMetadata().getUid();
        return uid != null
                && p.getMetadata().getOwnerReferences() != null
                && p.getMetadata().getOwnerReferences().stream()
                        .anyMatch(o -> uid.equals(o.getUid()));
    }

    /**
     * Why a pod cannot start because of its image, as the container runtime says it; null when it
     * can.
     */
    static String imageFailure(Pod pod) {
        if (pod.getStatus() == null) return null;
        for (ContainerStatus s : statuses(pod)) {
            var waiting = s.getState() == null ? null : s.getState().getWaiting();
            if (waiting != null && IMAGE_FAILURES.contains(waiting.getReason())) {
                return "its pod "
                        + pod.getMetadata().getName()
                        + " cannot pull the release image: "
                        + waiting.getReason()
                        + (waiting.getMessage() == null ? "" : ": " + waiting.getMessage());
            }
        }
        return null;
    }

    /** Init containers first, in the order they run. */
    private static List<ContainerStatus> statuses(Pod pod) {
        List<ContainerStatus> all = new ArrayList<>();
        if (pod.getStatus().getInitContainerStatuses() != null)
            all.addAll(pod.getStatus().getInitContainerStatuses());
        if (pod.getStatus().getContainerStatuses() != null)
            all.addAll(pod.getStatus().getContainerStatuses());
        return all;
    }

    /**
     * The containers of failed pods that ended in error, with what they said (their termination
     * message).
     */
    private String terminations() {
        List<String> out = new ArrayList<>();
        for (Pod p : pods.values()) {
            if (p.getStatus() == null) continue;
            for (ContainerStatus s : statuses(p)) {
                var t = s.getState() == null ? null : s.getState().getTerminated();
                if (t == null || t.getExitCode() == null || t.getExitCode() == 0) continue;
                String message =
                        t.getMessage() == null ? "" : t.getMessage().strip().replace('\n', ' ');
                out.add(
                        "pod "
                                + p.getMetadata().getName()
                                + " container "
                                + s.getName()
                                + " exited "
                                + t.getExitCode()
                                + (message.isEmpty() ? "" : ": " + message));
            }
        }
        return String.join("; ", out);
    }

    /** Where the Job and its pods stood, for a timeout. */
    private String where() {
        List<String> out = new ArrayList<>();
        for (Pod p : pods.values())
            out.add(
                    p.getMetadata().getName()
                            + " "
                            + (p.getStatus() == null ? "?" : p.getStatus().getPhase()));
        return out.isEmpty() ? "no pod was started" : String.join(", ", out);
    }

    private static String oneLine(KubernetesClientException e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        return m.strip().replaceAll("\\s*\\n\\s*", " ");
    }

    /** Hands a watch's events to the waiting thread, and its closing, named for this round. */
    private final class Forward<T> implements Watcher<T> {
        private final int r;
        private final String what;
        private final BiConsumer<Action, T> onEvent;

        Forward(int r, String what, BiConsumer<Action, T> onEvent) {
            this.r = r;
            this.what = what;
            this.onEvent = onEvent;
        }

        @Override
        public void eventReceived(Action action, T resource) {
            if (action != Action.ERROR && action != Action.BOOKMARK)
                onEvent.accept(action, resource);
        }

        @Override
        public void onClose(WatcherException cause) {
            signals.add(
                    new Signal.Closed(
                            r,
                            what,
                            cause.getMessage() == null
                                    ? cause.getClass().getSimpleName()
                                    : cause.getMessage().strip()));
        }

        @Override
        public void onClose() {
            // closed by us
        }
    }
}
