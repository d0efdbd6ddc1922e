package io.upshift.clusterversion.recommend;

import io.upshift.status.model.Alert;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Firing alerts as update prechecks, grouped as {@code oc adm upgrade recommend} groups them:
 * critical alerts, PodDisruptionBudget alerts, image-pull alerts, node alerts, alerts labelled
 * {@code openShiftUpdatePrecheck} and virtualization alerts; each group with no firing alert
 * reports a happy condition.
 */
public final class AlertPrechecks {

    private static final Set<String> NODE_ALERTS =
            Set.of(
                    "KubeletHealthState",
                    "KubeNodeNotReady",
                    "KubeNodeReadinessFlapping",
                    "KubeNodeUnreachable");
    private static final Set<String> VIRT_ALERTS =
            Set.of("VirtHandlerDaemonSetRolloutFailing", "VMCannotBeEvicted");
    private static final String DRAIN_SLOWING =
            "which may slow workload redistribution during rolling node updates.";

    private AlertPrechecks() {}

    /** When no alert data could be had for a mock run. */
    public static List<Precheck> noTestData(String alertsPath) {
        return List.of(
                new Precheck(
                        "recommended/Alert",
                        "Unknown",
                        "NoTestData",
                        "This --mock-clusterversion run did not have alert data available at "
                                + alertsPath,
                        "AlertNoTestData"));
    }

    public static List<Precheck> of(List<Alert> alerts) {
        List<Precheck> out = new ArrayList<>();
        boolean critical = false, pdb = false, pull = false, nodes = false, precheck = false;
        int i = 0;
        for (Alert a : alerts) {
            String name = a.name();
            if (name.isEmpty() || "pending".equals(a.state())) continue;
            String summary = a.summary().isEmpty() ? name : a.summary();
            if (!summary.endsWith(".")) summary += ".";
            String description;
            if (!a.message().isEmpty() && !a.description().isEmpty())
                description = " The alert description is: " + a.description() + " | " + a.message();
            else if (!a.description().isEmpty())
                description = " The alert description is: " + a.description();
            else if (!a.message().isEmpty())
                description = " The alert description is: " + a.message();
            else description = " The alert has no description.";
            String runbook =
                    a.runbookUrl().isEmpty()
                            ? "<alert does not have a runbook_url annotation>"
                            : a.runbookUrl();
            String details = summary + description + " " + runbook;
            String pdbDetails =
                    "Namespace="
                            + a.namespace()
                            + ", PodDisruptionBudget="
                            + a.label("poddisruptionbudget")
                            + ". "
                            + details;
            String head = a.severity() + " alert " + name + " " + a.state() + ", ";
            String group, message;
            if ("critical".equals(a.severity())) {
                critical = true;
                if (name.equals("PodDisruptionBudgetLimit")) {
                    pdb = true;
                    details = pdbDetails;
                }
                group = "CriticalAlerts";
                message =
                        head
                                + "suggesting significant cluster issues worth investigating. "
                                + details;
            } else if (name.equals("PodDisruptionBudgetAtLimit")) {
                pdb = true;
                group = "PodDisruptionBudgetAlerts";
                message = head + "which might slow node drains. " + pdbDetails;
            } else if (name.equals("KubeContainerWaiting")) {
                pull = true;
                group = "PodImagePullAlerts";
                message = head + DRAIN_SLOWING + " " + details;
            } else if (NODE_ALERTS.contains(name)) {
                nodes = true;
                group = "NodeAlerts";
                message = head + DRAIN_SLOWING + " " + details;
            } else if ("true".equals(a.label("openShiftUpdatePrecheck"))) {
                precheck = true;
                group = "UpdatePrecheckAlerts";
                message =
                        head
                                + "suggesting issues worth investigating before updating the"
                                + " cluster. "
                                + details;
            } else if (VIRT_ALERTS.contains(name)) {
                group = "VirtAlerts";
                message = head + DRAIN_SLOWING + " " + details;
            } else {
                continue;
            }
            out.add(
                    new Precheck(
                            "recommended/" + group + "/" + name + "/" + i,
                            "False",
                            "Alert:" + a.state(),
                            message,
                            name));
            i++;
        }
        if (!critical) out.add(asExpected("CriticalAlerts", "No critical alerts firing."));
        if (!pdb)
            out.add(
                    asExpected(
                            "PodDisruptionBudgetAlerts", "No PodDisruptionBudget alerts firing."));
        if (!pull)
            out.add(asExpected("PodImagePullAlerts", "No Pod container image pull alerts firing."));
        if (!nodes) out.add(asExpected("NodeAlerts", "No Node alerts firing."));
        if (!precheck)
            out.add(
                    asExpected(
                            "UpdatePrecheckAlerts",
                            "No alerts with the openShiftUpdatePrecheck label true are firing."));
        return out;
    }

    private static Precheck asExpected(String group, String message) {
        return new Precheck("recommended/" + group, "True", "AsExpected", message, "");
    }
}
