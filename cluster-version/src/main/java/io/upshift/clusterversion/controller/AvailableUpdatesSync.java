package io.upshift.clusterversion.controller;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionStatus;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdateRisk;
import io.fabric8.openshift.api.model.config.v1.PromQLClusterCondition;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.upshift.base.conditions.Conditions;
import io.upshift.clusterversion.model.DesiredUpdates;
import io.upshift.clusterversion.model.UpdatesReport;
import io.upshift.graph.client.UpdateClient;
import io.upshift.graph.model.Risk;
import io.upshift.graph.risk.MatchCache;
import io.upshift.graph.risk.RiskCondition;
import io.upshift.graph.risk.RiskEvaluation;
import io.upshift.graph.risk.RuleMatcher;
import io.upshift.graph.updates.AvailableUpdates;
import io.upshift.graph.updates.ConditionalTarget;
import io.upshift.graph.updates.RetrievedUpdates;
import io.upshift.graph.updates.Target;
import io.upshift.graph.updates.UpdatesRequest;
import io.upshift.releases.image.Egress;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Keeps {@code availableUpdates}, {@code conditionalUpdates} (with Applies and Recommended
 * conditions) and the RetrievedUpdates condition current, from the update graph named by {@code
 * spec.upstream} (else the controller's default, upstream's
 * https://api.openshift.com/api/upgrades_info/v1/graph) and {@code spec.channel}.
 */
final class AvailableUpdatesSync {

    private final UpdateClient client;
    private final RuleMatcher matcher;
    private final MatchCache cache = MatchCache.standard();
    private final Clock clock;
    private final String architecture;
    private final String defaultUpstream;
    private volatile AvailableUpdates state;

    /** The Applies condition of each risk of the conditional updates last shown, by name. */
    private volatile Map<String, RiskCondition> risks = Map.of();

    /**
     * @param architecture the controller's own (GOARCH names), asked for unless the cluster runs,
     *     or asks for, a multi-architecture release
     * @param defaultUpstream the update graph asked when {@code spec.upstream} is unset; empty or
     *     null: none
     */
    AvailableUpdatesSync(
            UpdateClient client,
            RuleMatcher matcher,
            Clock clock,
            String architecture,
            String defaultUpstream) {
        this.client = client;
        this.matcher = matcher;
        this.clock = clock;
        this.architecture = architecture;
        this.defaultUpstream = defaultUpstream;
    }

    /**
     * Refreshes when due, asking the update graph the {@code egress} way (the cluster's proxy and
     * trusted CA bundle as the caches hold them now); returns what status should show of it. {@code
     * desired} names the risks the administrator accepts.
     */
    @SuppressWarnings("ReferenceEquality") // refresh returns the state itself when nothing changed
    UpdatesReport sync(ClusterVersion cv, DesiredUpdates.Resolution desired, Egress egress) {
        Instant now = clock.instant();
        ClusterVersionStatus status =
                cv.getStatus() == null ? new ClusterVersionStatus() : cv.getStatus();
        String version = status.getDesired() == null ? "" : status.getDesired().getVersion();
        // as upstream: the graph of the architecture asked for, which differs from the one run
        // while a single-architecture cluster asks for its multi-architecture release
        String running =
                UpdatesRequest.architecture(
                        status.getDesired() == null ? null : status.getDesired().getArchitecture(),
                        architecture);
        Update asked = cv.getSpec().getDesiredUpdate();
        UpdatesRequest request =
                new UpdatesRequest(
                        UpdatesRequest.upstream(cv.getSpec().getUpstream(), defaultUpstream),
                        cv.getSpec().getChannel(),
                        UpdatesRequest.desiredArchitecture(
                                asked == null ? null : asked.getArchitecture(), running),
                        cv.getSpec().getClusterID(),
                        version == null ? "" : version,
                        running);
        if (state == null)
            state =
                    AvailableUpdates.seed(
                            request, null, now); // status keeps its lists until the first answer
        AvailableUpdates before = state;
        state = client.refresh(state, request, egress, now);
        if (state == before
                && Conditions.CLUSTER.find(status.getConditions(), "RetrievedUpdates") != null) {
            return UpdatesReport.unchanged(state.nextRefresh());
        }
        var current = state.current(request, now);
        if (current.isEmpty()) {
            if (!"True".equals(state.status())) risks = Map.of();
            // no answer to show: a failure clears the lists, anything else leaves them as they are
            UpdatesReport.Lists lists =
                    "True".equals(state.status()) ? null : new UpdatesReport.Lists(null, null);
            return new UpdatesReport(
                    true,
                    state.status(),
                    state.reason(),
                    state.message(),
                    lists,
                    state.nextRefresh());
        }
        RetrievedUpdates u = current.get();
        List<Release> available = new ArrayList<>();
        for (Target t : u.available()) available.add(release(t));
        Set<String> accept =
                new HashSet<>(
                        desired.target() != null ? desired.target().acceptRisks() : List.of());
        Map<String, RiskCondition> applies = new HashMap<>();
        List<ConditionalUpdate> conditional = new ArrayList<>();
        for (ConditionalTarget c : u.conditional()) {
            for (Risk r : c.risks())
                applies.computeIfAbsent(
                        r.name(), k -> RiskEvaluation.applies(r, cache, matcher, now));
            RiskCondition rec = RiskEvaluation.recommended(c, applies, accept);
            ConditionalUpdate cu = new ConditionalUpdate();
            cu.setRelease(release(c.release()));
            List<ConditionalUpdateRisk> risks = new ArrayList<>();
            for (Risk r : c.risks()) risks.add(risk(r));
            cu.setRisks(risks);
            cu.setConditions(List.of(condition(rec, previous(status, c.release().version()), now)));
            conditional.add(cu);
            if ("True".equals(rec.status()))
                available.add(release(c.release())); // Recommended=True is offered plainly too
        }
        risks = Map.copyOf(applies);
        return new UpdatesReport(
                true,
                state.status(),
                state.reason(),
                state.message(),
                new UpdatesReport.Lists(available, conditional.isEmpty() ? null : conditional),
                state.nextRefresh());
    }

    /** When the update graph last answered; null before it did (or after its answer aged out). */
    Instant lastRetrieved() {
        AvailableUpdates s = state;
        return s == null ? null : s.lastGoodAt();
    }

    /** The Applies condition of each risk of the conditional updates last shown, by risk name. */
    Map<String, RiskCondition> risks() {
        return risks;
    }

    /** The Recommended condition status held for {@code version}, if any. */
    private static Condition previous(ClusterVersionStatus status, String version) {
        if (status.getConditionalUpdates() == null) return null;
        for (ConditionalUpdate u : status.getConditionalUpdates()) {
            if (u.getRelease() != null && version.equals(u.getRelease().getVersion()))
                return Conditions.META.find(u.getConditions(), "Recommended");
        }
        return null;
    }

    private static Release release(Target t) {
        Release r = new Release();
        r.setVersion(t.version());
        r.setImage(t.image());
        if (!t.url().isEmpty()) r.setUrl(t.url());
        if (!t.channels().isEmpty()) r.setChannels(t.channels());
        if (!t.architecture().isEmpty()) r.setArchitecture(t.architecture());
        return r;
    }

    private static ConditionalUpdateRisk risk(Risk r) {
        ConditionalUpdateRisk out = new ConditionalUpdateRisk();
        out.setName(r.name());
        out.setUrl(r.url());
        out.setMessage(r.message());
        List<ClusterCondition> rules = new ArrayList<>();
        for (Risk.MatchingRule m : r.matchingRules()) {
            ClusterCondition c = new ClusterCondition();
            c.setType(m.type());
            if (m.promql() != null) {
                PromQLClusterCondition q = new PromQLClusterCondition();
                q.setPromql(m.promql());
                c.setPromql(q);
            }
            rules.add(c);
        }
        out.setMatchingRules(rules);
        return out;
    }

    /**
     * The condition, keeping the transition time of {@code before} while the status stays the same.
     */
    private static Condition condition(RiskCondition rc, Condition before, Instant now) {
        Condition c = new Condition();
        c.setType(rc.type());
        c.setStatus(rc.status());
        c.setReason(rc.reason());
        c.setMessage(rc.message());
        c.setLastTransitionTime(
                before != null
                                && rc.status().equals(before.getStatus())
                                && before.getLastTransitionTime() != null
                        ? before.getLastTransitionTime()
                        : now.toString());
        return c;
    }
}
