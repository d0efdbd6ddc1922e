package io.upshift.clusterversion.model;

import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionCapabilitiesStatus;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.upshift.api.json.Mappers;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.conditions.StatusConditions;
import io.upshift.releases.capability.Capabilities;
import io.upshift.releases.taskgraph.Mode;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.TreeSet;

/**
 * The ClusterVersion status the cluster should show, from what the controller knows at a moment:
 * the status as the cluster holds it, the resolution of {@code spec.desiredUpdate}, the sync
 * worker's report and what the Upgradeable checks look at. A pure function: equal inputs give equal
 * status, so a level cluster gets no write.
 */
public final class VersionStatus {

    /**
     * Everything status is computed from; {@code unreadable}: the cluster config kinds the
     * controller may not read.
     */
    public record Input(
            ClusterVersion cv,
            DesiredUpdates.Resolution resolution,
            SyncStatus sync,
            UpdatesReport updates,
            Upgradeable.Facts upgradeable,
            Capabilities capabilities,
            Instant now,
            List<UnreadableConfig> unreadable) {
        public Input {
            unreadable = List.copyOf(unreadable);
        }

        /** With every cluster config kind readable. */
        public Input(
                ClusterVersion cv,
                DesiredUpdates.Resolution resolution,
                SyncStatus sync,
                UpdatesReport updates,
                Upgradeable.Facts upgradeable,
                Capabilities capabilities,
                Instant now) {
            this(cv, resolution, sync, updates, upgradeable, capabilities, now, List.of());
        }
    }

    private VersionStatus() {}

    public static ClusterVersionStatus next(Input in) {
        ClusterVersionStatus s = copy(in.cv().getStatus());
        Instant now = in.now();
        s.setObservedGeneration(
                in.cv().getMetadata().getGeneration() == null
                        ? 1L
                        : in.cv().getMetadata().getGeneration());
        if (s.getVersionHash() == null) s.setVersionHash("");
        if (s.getDesired() == null) s.setDesired(new Release());
        if (s.getHistory() == null) s.setHistory(new ArrayList<>());
        updates(s, in.updates(), now);
        capabilities(s, in.capabilities(), now);
        DesiredUpdates.Resolution r = in.resolution();
        // as upstream: the condition is there only while the spec is invalid
        if (r.valid()) s.setConditions(StatusConditions.remove(s.getConditions(), "Invalid"));
        else set(s, "Invalid", "True", r.invalidReason(), r.invalidMessage(), now);
        SyncStatus sync = in.sync();
        if (sync.acceptance() instanceof SyncStatus.Acceptance.Pending && sync.target() != null) {
            retrieving(s, sync.target(), now);
        } else if (sync.acceptance() instanceof SyncStatus.Acceptance.Refused refused) {
            set(s, "ReleaseAccepted", "False", refused.reason(), refused.message(), now);
        } else if (sync.acceptance() instanceof SyncStatus.Acceptance.Accepted accepted) {
            record(s, accepted, now);
            progress(s, sync, accepted, r.valid(), now);
        }
        upgradeable(s, Upgradeable.of(in.upgradeable(), s), now);
        clusterConfig(s, in.unreadable(), now);
        if (Conditions.CLUSTER.find(s.getConditions(), "Available") == null)
            set(s, "Available", "False", "", "", now);
        return s;
    }

    /** RetrievedUpdates and the update lists, when the update graph said something new. */
    private static void updates(ClusterVersionStatus s, UpdatesReport r, Instant now) {
        if (!r.changed()) return;
        set(s, "RetrievedUpdates", r.status(), r.reason(), r.message(), now);
        if (r.lists() == null) return;
        s.setAvailableUpdates(r.lists().available());
        s.setConditionalUpdates(r.lists().conditional());
    }

    /**
     * A target being retrieved and verified, in upstream's words (its RetrievePayload step):
     * ReleaseAccepted=Unknown, in place of an earlier request's outcome; for a release other than
     * the one status.desired names, Progressing "Working towards" it and no earlier failure. The
     * release already accepted, loaded again (a restart, new load rules), changes nothing.
     */
    private static void retrieving(ClusterVersionStatus s, SyncStatus.Target t, Instant now) {
        boolean current = t.image().equals(s.getDesired().getImage());
        var accepted = StatusConditions.find(s.getConditions(), "ReleaseAccepted");
        if (current && accepted != null && "True".equals(accepted.getStatus())) return;
        set(
                s,
                "ReleaseAccepted",
                "Unknown",
                "RetrievePayload",
                "Retrieving and verifying payload version=\""
                        + t.version()
                        + "\" image=\""
                        + t.image()
                        + "\"",
                now);
        if (current) return;
        set(s, "Failing", "False", "", "", now);
        set(
                s,
                "Progressing",
                "True",
                "",
                "Working towards " + (t.version().isEmpty() ? t.image() : t.version()),
                now);
    }

    /**
     * The accepted release becomes status.desired and, unless history[0] already is it, a new
     * Partial history entry.
     */
    private static void record(
            ClusterVersionStatus s, SyncStatus.Acceptance.Accepted a, Instant now) {
        set(
                s,
                "ReleaseAccepted",
                "True",
                "PayloadLoaded",
                "Payload loaded version=\""
                        + a.version()
                        + "\" image=\""
                        + a.image()
                        + "\" architecture=\""
                        + a.architecture()
                        + "\"",
                now);
        Release desired = new Release();
        desired.setVersion(a.version());
        desired.setImage(a.image());
        if (!a.url().isEmpty()) desired.setUrl(a.url());
        if (!a.channels().isEmpty())
            desired.setChannels(new ArrayList<>(new TreeSet<>(a.channels())));
        // a multi-architecture release says so, as upstream's status does (its only value)
        if (DesiredUpdates.MULTI.equals(a.architecture()))
            desired.setArchitecture(DesiredUpdates.MULTI);
        s.setDesired(desired);
        s.setHistory(
                History.begin(
                        s.getHistory(),
                        a.version(),
                        a.image(),
                        a.verified(),
                        a.acceptedRisks(),
                        now));
    }

    /**
     * Available, Progressing and Failing from the passes over the accepted release, in upstream's
     * words (pkg/cvo/status.go): done, "Cluster version is V", or "Error while reconciling V: ..."
     * while a reconcile pass fails; updating, "Working towards V..." (see {@link Progress}) or,
     * once the update fails, "Unable to apply V: ..."; while the spec is invalid, Progressing says
     * so.
     */
    private static void progress(
            ClusterVersionStatus s,
            SyncStatus sync,
            SyncStatus.Acceptance.Accepted a,
            boolean valid,
            Instant now) {
        if (sync.total() == 0) return; // no pass has reported yet
        String version = a.version();
        Failing failing = sync.failing();
        boolean failed = "True".equals(failing.status());
        set(s, "Failing", failing.status(), failing.reason(), failing.message(), now);
        String invalid = valid ? "" : DesiredUpdates.INVALID;
        if (sync.completed()) {
            s.setHistory(History.complete(s.getHistory(), a.image(), sync.completedAt()));
            set(s, "Available", "True", "", "Done applying " + version, now);
            if (failed && sync.mode() == Mode.RECONCILING) {
                set(
                        s,
                        "Progressing",
                        "False",
                        failing.reason(),
                        "Error while reconciling " + version + ": " + failing.summary(),
                        now);
                return;
            }
            set(
                    s,
                    "Progressing",
                    "False",
                    invalid,
                    valid
                            ? "Cluster version is " + version
                            : "Stopped at " + version + ": the cluster version is invalid",
                    now);
        } else if (sync.mode() != Mode.RECONCILING) {
            String tail =
                    !failing.progress().isEmpty()
                            ? failing.progress()
                            : sync.waitingOn().isEmpty()
                                    ? ""
                                    : "waiting on " + String.join(", ", sync.waitingOn());
            String message =
                    failed
                            ? "Unable to apply " + version + ": " + failing.progress()
                            : !valid
                                    ? "Reconciling " + version + ": the cluster version is invalid"
                                    : new Progress(version, sync.done(), sync.total(), tail)
                                            .message();
            set(s, "Progressing", "True", failed ? failing.reason() : invalid, message, now);
        }
    }

    /**
     * The Upgradeable conditions, from the status computed so far (an update in progress, the
     * current version): those the checks give, by type, and none of an earlier check that now
     * passes.
     */
    private static void upgradeable(ClusterVersionStatus s, Upgradeable u, Instant now) {
        List<UpgradeableCheck> conditions = new ArrayList<>(u.conditions());
        conditions.sort(Comparator.comparing(UpgradeableCheck::type));
        List<String> types = conditions.stream().map(UpgradeableCheck::type).toList();
        for (ClusterOperatorStatusCondition c :
                List.copyOf(s.getConditions() == null ? List.of() : s.getConditions())) {
            if (c.getType() != null
                    && c.getType().startsWith(Upgradeable.TYPE)
                    && !types.contains(c.getType())) {
                s.setConditions(StatusConditions.remove(s.getConditions(), c.getType()));
            }
        }
        for (UpgradeableCheck c : conditions)
            set(s, c.type(), c.status(), c.reason(), c.message(), now);
    }

    /**
     * {@value UnreadableConfig#CONDITION}=False while a cluster config kind is refused; no
     * condition otherwise.
     */
    private static void clusterConfig(
            ClusterVersionStatus s, List<UnreadableConfig> refused, Instant now) {
        if (refused.isEmpty()) {
            if (Conditions.CLUSTER.find(s.getConditions(), UnreadableConfig.CONDITION) != null) {
                s.setConditions(
                        StatusConditions.remove(s.getConditions(), UnreadableConfig.CONDITION));
            }
            return;
        }
        set(
                s,
                UnreadableConfig.CONDITION,
                "False",
                UnreadableConfig.REASON,
                UnreadableConfig.message(refused),
                now);
    }

    /**
     * status.capabilities, and ImplicitlyEnabledCapabilities from them: what is enabled that the
     * spec does not ask for.
     */
    private static void capabilities(ClusterVersionStatus s, Capabilities caps, Instant now) {
        ClusterVersionCapabilitiesStatus c = new ClusterVersionCapabilitiesStatus();
        c.setEnabledCapabilities(new ArrayList<>(new TreeSet<>(caps.enabled())));
        c.setKnownCapabilities(new ArrayList<>(new TreeSet<>(caps.known())));
        s.setCapabilities(c);
        boolean none = caps.implicitlyEnabled().isEmpty();
        set(
                s,
                "ImplicitlyEnabledCapabilities",
                none ? "False" : "True",
                none ? "AsExpected" : "CapabilitiesImplicitlyEnabled",
                none
                        ? "Capabilities match configured spec"
                        : "The following capabilities could not be disabled: "
                                + String.join(", ", new TreeSet<>(caps.implicitlyEnabled())),
                now);
    }

    private static void set(
            ClusterVersionStatus s,
            String type,
            String status,
            String reason,
            String message,
            Instant now) {
        s.setConditions(
                StatusConditions.set(s.getConditions(), type, status, reason, message, now));
    }

    private static ClusterVersionStatus copy(ClusterVersionStatus s) {
        return s == null
                ? new ClusterVersionStatus()
                : Mappers.JSON.convertValue(
                        Mappers.JSON.valueToTree(s), ClusterVersionStatus.class);
    }
}
