package io.upshift.pools.machineconfignode;

import io.fabric8.kubernetes.api.model.Condition;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A MachineConfigNode's conditions after the steps of an update reported their {@link Transition}s,
 * by upstream's rules ({@code generateAndApplyMachineConfigNodes}, machine-config-operator
 * pkg/upgrademonitor/upgrade_monitor.go):
 *
 * <ul>
 *   <li>the first report lays down every {@link ConditionType}, those it does not name {@code
 *       False}, {@code NotYetOccurred}, "This node has not yet entered the X phase";
 *   <li>a step whose parent condition already has its status and message changes nothing, its child
 *       included;
 *   <li>{@code Updated=True} standing when another phase is reported turns {@code False} ("sensed
 *       disruption");
 *   <li>reporting {@code Updated} turns every other condition not already {@code False} to {@code
 *       False}, its message prefixed "Action during update to &lt;desired&gt;: ".
 * </ul>
 *
 * Several steps may be reported in one write: the result is the conditions after each in turn.
 * Unlike upstream, which stamps each condition it touches with the time, a condition whose status,
 * reason and message come out as they were keeps its {@code lastTransitionTime}, so reporting the
 * same steps again changes nothing. Conditions of types Upshift does not write (upstream's pinned
 * image sets) are kept as they are, after Upshift's.
 */
public final class NodeConditions {
    static final String NOT_YET_OCCURRED = "NotYetOccurred";

    private NodeConditions() {}

    /**
     * @param desired the config the MachineConfigNode's spec names, for the messages {@code
     *     Updated} resets
     */
    public static List<Condition> apply(
            List<Condition> current, List<Transition> steps, String desired, Instant now) {
        Map<ConditionType, Report> reported = new LinkedHashMap<>();
        List<Condition> others = new ArrayList<>();
        for (Condition c : current == null ? List.<Condition>of() : current) {
            ConditionType type = ConditionType.of(c.getType());
            if (type == null) others.add(c);
            else
                reported.put(
                        type,
                        new Report(
                                type,
                                text(c.getStatus()),
                                text(c.getReason()),
                                text(c.getMessage())));
        }
        for (Transition step : steps) reported = apply(reported, step, desired);

        String time = now.truncatedTo(ChronoUnit.SECONDS).toString();
        List<Condition> out = new ArrayList<>();
        for (ConditionType type : ConditionType.values()) {
            Report r = reported.get(type);
            if (r == null) continue;
            Condition before = find(current, type.name());
            boolean same =
                    before != null
                            && r.status().equals(before.getStatus())
                            && r.reason().equals(before.getReason())
                            && r.message().equals(before.getMessage());
            out.add(
                    new Condition(
                            same ? before.getLastTransitionTime() : time,
                            r.message(),
                            null,
                            r.reason(),
                            r.status(),
                            type.name()));
        }
        out.addAll(others);
        return out;
    }

    private static Map<ConditionType, Report> apply(
            Map<ConditionType, Report> before, Transition step, String desired) {
        Report parent = step.parent(), child = step.child();
        Map<ConditionType, Report> after = new LinkedHashMap<>();
        if (before.isEmpty()) {
            for (ConditionType type : ConditionType.values()) {
                after.put(
                        type,
                        type == parent.type()
                                ? parent
                                : child != null && type == child.type()
                                        ? child
                                        : new Report(
                                                type,
                                                Report.FALSE,
                                                NOT_YET_OCCURRED,
                                                "This node has not yet entered the "
                                                        + type
                                                        + " phase"));
            }
            return after;
        }
        boolean reset = parent.type() == ConditionType.Updated;
        for (Report c : before.values()) {
            if (c.type() == ConditionType.Updated && Report.TRUE.equals(c.status()) && !reset) {
                after.put(
                        c.type(),
                        new Report(
                                c.type(),
                                Report.FALSE,
                                ConditionType.Updated.name(),
                                "This node is not updated, sensed disruption via a manual"
                                        + " update."));
            } else if (child != null && c.type() == child.type()) {
                after.put(c.type(), child);
            } else if (c.type() == parent.type()) {
                if (c.status().equals(parent.status()) && c.message().equals(parent.message()))
                    return before;
                after.put(c.type(), parent);
            } else if (reset && !Report.FALSE.equals(c.status())) {
                after.put(
                        c.type(),
                        new Report(
                                c.type(),
                                Report.FALSE,
                                c.reason(),
                                "Action during update to " + desired + ": " + c.message()));
            } else {
                after.put(c.type(), c);
            }
        }
        if (child != null) after.putIfAbsent(child.type(), child);
        after.putIfAbsent(parent.type(), parent);
        return after;
    }

    private static String text(String s) {
        return s == null ? "" : s;
    }

    private static Condition find(List<Condition> conditions, String type) {
        if (conditions == null) return null;
        return conditions.stream().filter(c -> type.equals(c.getType())).findFirst().orElse(null);
    }
}
