package io.upshift.clusterversion.recommend;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdateRisk;
import io.upshift.base.version.SemVer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Upgradeable=False blocks minor and major updates, so {@code recommend} shows it as a risk of each
 * such target, merged into the target's Recommended condition as oc does.
 */
final class UpgradeableRisk {

    private UpgradeableRisk() {}

    static void inject(
            SemVer current,
            ClusterOperatorStatusCondition upgradeable,
            Map<Long, Map<Long, List<ConditionalUpdate>>> buckets) {
        String uri =
                current.minor() <= 13
                        ? "https://docs.openshift.com/container-platform/"
                                + current.majorMinor()
                                + "/updating/index.html#understanding_clusteroperator_conditiontypes_updating-clusters-overview"
                        : "https://docs.openshift.com/container-platform/"
                                + current.majorMinor()
                                + "/updating/preparing_for_updates/updating-cluster-prepare.html#cluster-upgradeable_updating-cluster-prepare";
        buckets.forEach(
                (major, minors) -> {
                    if (major < current.major()) return;
                    minors.forEach(
                            (minor, targets) -> {
                                if (major == current.major() && minor <= current.minor()) return;
                                targets.replaceAll(t -> withRisk(t, upgradeable, uri));
                            });
                });
    }

    private static ConditionalUpdate withRisk(
            ConditionalUpdate target, ClusterOperatorStatusCondition c, String uri) {
        List<ConditionalUpdateRisk> risks =
                target.getRisks() == null ? new ArrayList<>() : new ArrayList<>(target.getRisks());
        if (risks.stream()
                .anyMatch(r -> r.getMessage() != null && r.getMessage().contains(c.getMessage())))
            return target;
        ConditionalUpdateRisk risk = new ConditionalUpdateRisk();
        risk.setUrl(uri);
        risk.setName("UpgradeableFalse");
        risk.setMessage(c.getMessage());
        ClusterCondition always = new ClusterCondition();
        always.setType("Always");
        risk.setMatchingRules(List.of(always));
        risks.add(risk);
        ConditionalUpdate copy = new ConditionalUpdate();
        copy.setRelease(target.getRelease());
        copy.setRisks(risks);
        List<Condition> conditions =
                target.getConditions() == null
                        ? new ArrayList<>()
                        : new ArrayList<>(target.getConditions());
        for (int i = 0; i < conditions.size(); i++) {
            Condition existing = conditions.get(i);
            if (!"Recommended".equals(existing.getType())) continue;
            Condition merged = new Condition();
            merged.setType("Recommended");
            merged.setStatus("False");
            if ("True".equals(existing.getStatus())) {
                merged.setReason(c.getReason());
                merged.setMessage(c.getMessage());
            } else {
                merged.setReason("MultipleReasons");
                merged.setMessage(c.getMessage() + "\n\n" + existing.getMessage());
            }
            conditions.set(i, merged);
            copy.setConditions(conditions);
            return copy;
        }
        Condition added = new Condition();
        added.setType("Recommended");
        added.setStatus("False");
        added.setReason(c.getReason());
        added.setMessage(c.getMessage());
        conditions.add(added);
        copy.setConditions(conditions);
        return copy;
    }
}
