package io.upshift.clusterversion.recommend;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdateRisk;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.gofmt.Tabwriter;
import io.upshift.base.version.SemVer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What {@code upshift recommend} prints, byte for byte as {@code oc adm upgrade recommend}: cluster
 * conditions worth knowing before an update, prechecks, then updates grouped by minor version, or
 * one target in detail with {@code --version}. A pure function of the ClusterVersion and the
 * precheck results.
 *
 * @param showOutdated list every update of each minor, not just the newest two
 * @param version show one target in detail; null for the overview
 * @param quiet with a version: print nothing, only fail on unaccepted issues
 * @param accept issue names the administrator accepts
 */
public record Recommendation(
        boolean showOutdated, SemVer version, boolean quiet, Set<String> accept) {

    /** Printed text and, when the command fails, why (oc prints it as "error: ..."). */
    public record Output(String out, String err, String error) {}

    private static final Comparator<ConditionalUpdate> NEWEST_FIRST =
            (a, b) -> {
                String va = a.getRelease().getVersion(), vb = b.getRelease().getVersion();
                boolean pa = SemVer.isValid(va), pb = SemVer.isValid(vb);
                if (pa && pb) return SemVer.parse(vb).compareTo(SemVer.parse(va));
                if (pa != pb) return pa ? -1 : 1;
                return vb.compareTo(va);
            };

    public Output render(ClusterVersion cv, List<Precheck> prechecks, String precheckError) {
        StringBuilder out = new StringBuilder(), err = new StringBuilder();
        Set<String> issues = new TreeSet<>();
        var status = cv.getStatus();
        List<ClusterOperatorStatusCondition> conditions =
                status == null || status.getConditions() == null
                        ? List.of()
                        : status.getConditions();

        ClusterOperatorStatusCondition failing = Conditions.CLUSTER.find(conditions, "Failing");
        String failingAccepted = accept.contains("Failing") ? "accepted " : "";
        if (failing == null) {
            if (!quiet)
                err.append(failingAccepted)
                        .append(
                                "warning: No current Failing info, see `oc describe clusterversion`"
                                        + " for more details.\n");
            issues.add("Failing");
        } else if (!"False".equals(failing.getStatus())) {
            if (!quiet)
                out.append(failingAccepted)
                        .append(failing.getType())
                        .append('=')
                        .append(failing.getStatus())
                        .append(":\n\n  Reason: ")
                        .append(failing.getReason())
                        .append("\n  Message: ")
                        .append(indent(failing.getMessage()))
                        .append("\n\n");
            issues.add("Failing");
        }
        ClusterOperatorStatusCondition progressing =
                Conditions.CLUSTER.find(conditions, "Progressing");
        if (progressing != null
                && "True".equals(progressing.getStatus())
                && !nz(progressing.getMessage()).isEmpty()) {
            if (!quiet)
                out.append(accept.contains("Progressing") ? "accepted " : "")
                        .append(
                                "info: An update is in progress.  You may wish to let this update"
                                        + " complete before requesting a new update.\n"
                                        + "  ")
                        .append(indent(progressing.getMessage()))
                        .append("\n\n");
            issues.add("Progressing");
        }

        if (precheckError != null) {
            if (!quiet)
                out.append("Failed to check for at least some preconditions: ")
                        .append(precheckError)
                        .append('\n');
            issues.add("FailedToCompletePrecheck");
        }
        List<String> happy = new ArrayList<>(),
                accepted = new ArrayList<>(),
                unhappy = new ArrayList<>();
        for (Precheck c : prechecks) {
            if (c.happy()) {
                happy.add(c.type() + " (" + c.reason() + ")");
            } else {
                issues.add(c.acceptanceName());
                (accept.contains(c.acceptanceName()) ? accepted : unhappy).add(c.type());
            }
        }
        if (!quiet) {
            if (!happy.isEmpty())
                out.append(
                                "The following conditions found no cause for concern in updating"
                                        + " this cluster to later releases: ")
                        .append(sortedJoin(happy))
                        .append("\n\n");
            if (!accepted.isEmpty())
                out.append(
                                "The following conditions found cause for concern in updating this"
                                    + " cluster to later releases, but were explicitly accepted via"
                                    + " --accept: ")
                        .append(sortedJoin(accepted))
                        .append("\n\n");
            if (!unhappy.isEmpty()) {
                out.append(
                                "The following conditions found cause for concern in updating this"
                                        + " cluster to later releases: ")
                        .append(sortedJoin(unhappy))
                        .append("\n\n");
                for (Precheck c : prechecks) {
                    if (!c.happy())
                        out.append(c.type())
                                .append('=')
                                .append(c.status())
                                .append(":\n\n  Reason: ")
                                .append(c.reason())
                                .append("\n  Message: ")
                                .append(indent(c.message()))
                                .append("\n\n");
                }
            }
        }

        ClusterOperatorStatusCondition retrieved =
                Conditions.CLUSTER.find(conditions, "RetrievedUpdates");
        if (retrieved != null && !"True".equals(retrieved.getStatus())) {
            if (!quiet)
                err.append("warning: Cannot refresh available updates:\n  Reason: ")
                        .append(retrieved.getReason())
                        .append("\n  Message: ")
                        .append(indent(retrieved.getMessage()))
                        .append("\n\n");
            issues.add("CannotRetrieveUpdates");
        }
        String channel = cv.getSpec() == null ? null : cv.getSpec().getChannel();
        if (!quiet && !nz(channel).isEmpty()) {
            String upstream = nz(cv.getSpec().getUpstream());
            out.append(
                    upstream.isEmpty()
                            ? "Upstream update service is unset, so the cluster will use an"
                                    + " appropriate default.\n"
                            : "Upstream update service: " + upstream + "\n");
            List<String> channels =
                    status == null
                                    || status.getDesired() == null
                                    || status.getDesired().getChannels() == null
                            ? List.of()
                            : status.getDesired().getChannels();
            out.append("Channel: ")
                    .append(channel)
                    .append(
                            channels.isEmpty()
                                    ? ""
                                    : " (available channels: " + String.join(", ", channels) + ")")
                    .append('\n');
        }

        Map<Long, Map<Long, List<ConditionalUpdate>>> buckets =
                new TreeMap<>(Comparator.reverseOrder());
        List<ConditionalUpdate> conditional =
                status == null || status.getConditionalUpdates() == null
                        ? List.of()
                        : status.getConditionalUpdates();
        for (ConditionalUpdate u : conditional)
            bucket(buckets, u, u.getRelease().getVersion(), err);
        List<Release> available =
                status == null || status.getAvailableUpdates() == null
                        ? List.of()
                        : status.getAvailableUpdates();
        for (Release r : available) {
            if (conditional.stream()
                    .anyMatch(c -> nz(c.getRelease().getImage()).equals(nz(r.getImage()))))
                continue;
            ConditionalUpdate u = new ConditionalUpdate();
            u.setRelease(r);
            bucket(buckets, u, r.getVersion(), err);
        }
        ClusterOperatorStatusCondition upgradeable =
                Conditions.CLUSTER.find(conditions, "Upgradeable");
        if (upgradeable != null && "False".equals(upgradeable.getStatus())) {
            String current =
                    status.getDesired() == null ? "" : nz(status.getDesired().getVersion());
            if (SemVer.isValid(current))
                UpgradeableRisk.inject(SemVer.parse(current), upgradeable, buckets);
            else if (!quiet)
                err.append(
                                "warning: Cannot inject Upgradeable=False as a conditional update"
                                        + " risk: cannot parse SemVer version \"")
                        .append(current)
                        .append("\"\n\nReason: ")
                        .append(upgradeable.getReason())
                        .append("\n  Message: ")
                        .append(indent(upgradeable.getMessage()))
                        .append("\n\n");
        }

        if (version != null) return target(buckets, issues, out, err);
        if (buckets.isEmpty()) {
            out.append(
                    "No updates available. You may still upgrade to a specific release image with"
                            + " --to-image or wait for new updates to be available.\n");
            return new Output(out.toString(), err.toString(), null);
        }
        for (Map.Entry<Long, Map<Long, List<ConditionalUpdate>>> major : buckets.entrySet()) {
            for (Map.Entry<Long, List<ConditionalUpdate>> minor : major.getValue().entrySet()) {
                overview(out, major.getKey(), minor.getKey(), minor.getValue());
            }
        }
        return new Output(out.toString(), err.toString(), null);
    }

    private void overview(
            StringBuilder out, long major, long minor, List<ConditionalUpdate> updates) {
        out.append("\nUpdates to ").append(major).append('.').append(minor).append(":\n");
        // oc writes the table through a tabwriter that only reaches the output when flushed, and
        // the rest directly
        Tabwriter w = new Tabwriter(14, 1).write("  VERSION\tISSUES\n");
        boolean lastWasLong = false, headerQueued = true;
        updates.sort(NEWEST_FIRST);
        for (int i = 0; i < updates.size(); i++) {
            ConditionalUpdate u = updates.get(i);
            Condition c = notRecommended(u);
            if (lastWasLong || (c != null && !showOutdated)) {
                out.append('\n');
                if (c == null && !headerQueued) {
                    w.write("  VERSION\tISSUES\n");
                    headerQueued = true;
                }
                lastWasLong = false;
            }
            if (i == 2 && !showOutdated) {
                out.append("And ")
                        .append(updates.size() - 2)
                        .append(" older ")
                        .append(major)
                        .append('.')
                        .append(minor)
                        .append(
                                " updates you can see with '--show-outdated-releases' or '--version"
                                        + " VERSION'.\n");
                break;
            }
            if (c == null) {
                w.write(
                        "  "
                                + u.getRelease().getVersion()
                                + "\tno known issues relevant to this cluster\n");
                if (!showOutdated) {
                    headerQueued = false;
                    out.append(w.flush());
                }
            } else if (showOutdated) {
                w.write("  " + u.getRelease().getVersion() + "\t" + c.getReason() + "\n");
            } else {
                out.append("  Version: ")
                        .append(u.getRelease().getVersion())
                        .append("\n  Image: ")
                        .append(u.getRelease().getImage())
                        .append('\n');
                out.append("  Reason: ")
                        .append(c.getReason())
                        .append("\n  Message: ")
                        .append(indent(nz(c.getMessage()).strip()))
                        .append('\n');
                lastWasLong = true;
            }
        }
        if (showOutdated) out.append(w.flush());
    }

    private Output target(
            Map<Long, Map<Long, List<ConditionalUpdate>>> buckets,
            Set<String> issues,
            StringBuilder out,
            StringBuilder err) {
        Output fail;
        if (buckets.isEmpty()) {
            return new Output(
                    out.toString(),
                    err.toString(),
                    "no updates available, so cannot display context for the requested release "
                            + version);
        }
        Map<Long, List<ConditionalUpdate>> major = buckets.get(version.major());
        if (major == null) {
            return new Output(
                    out.toString(),
                    err.toString(),
                    "no updates to "
                            + version.major()
                            + " available, so cannot display context for the requested release "
                            + version);
        }
        List<ConditionalUpdate> minor = major.get(version.minor());
        if (minor == null) {
            return new Output(
                    out.toString(),
                    err.toString(),
                    "no updates to "
                            + version.majorMinor()
                            + " available, so cannot display context for the requested release "
                            + version);
        }
        for (ConditionalUpdate u : minor) {
            Release r = u.getRelease();
            if (!r.getVersion().equals(version.toString())) continue;
            if (!quiet) out.append('\n');
            Condition c = notRecommended(u);
            if (c == null) {
                if (!quiet)
                    out.append("Update to ")
                            .append(r.getVersion())
                            .append(" has no known issues relevant to this cluster.\nImage: ")
                            .append(r.getImage())
                            .append("\nRelease URL: ")
                            .append(nz(r.getUrl()))
                            .append('\n');
            } else {
                if (!quiet) {
                    String reason =
                            accept.contains("ConditionalUpdateRisk")
                                    ? "accepted " + c.getReason() + " via ConditionalUpdateRisk"
                                    : c.getReason();
                    out.append("Update to ")
                            .append(r.getVersion())
                            .append(' ')
                            .append(c.getType())
                            .append('=')
                            .append(c.getStatus())
                            .append(":\nImage: ")
                            .append(r.getImage())
                            .append("\nRelease URL: ")
                            .append(nz(r.getUrl()))
                            .append("\nReason: ")
                            .append(reason)
                            .append("\nMessage: ")
                            .append(indent(c.getMessage()))
                            .append('\n');
                }
                issues.add("ConditionalUpdateRisk");
            }
            Set<String> unaccepted = new TreeSet<>(issues);
            unaccepted.removeAll(accept);
            if (!unaccepted.isEmpty()) {
                return new Output(
                        out.toString(),
                        err.toString(),
                        "issues that apply to this cluster but which were not included in --accept:"
                                + " "
                                + String.join(",", unaccepted));
            }
            if (!issues.isEmpty() && !quiet) {
                out.append("Update to ")
                        .append(r.getVersion())
                        .append(
                                " has no known issues relevant to this cluster other than the"
                                        + " accepted ")
                        .append(String.join(",", issues))
                        .append(".\n");
            }
            return new Output(out.toString(), err.toString(), null);
        }
        fail =
                new Output(
                        out.toString(),
                        err.toString(),
                        "no update to "
                                + version
                                + " available, so cannot display context for the requested"
                                + " release");
        return fail;
    }

    /** The Recommended condition when the update is not recommended, or null. */
    static Condition notRecommended(ConditionalUpdate u) {
        if (u.getRisks() == null || u.getRisks().isEmpty()) return null;
        Condition recommended = Conditions.META.find(u.getConditions(), "Recommended");
        if (recommended != null) return "True".equals(recommended.getStatus()) ? null : recommended;
        // oc sizes its list and then appends, so the names follow as many empty strings as there
        // are risks
        List<String> names = new ArrayList<>();
        names.addAll(Collections.nCopies(u.getRisks().size(), ""));
        for (ConditionalUpdateRisk r : u.getRisks()) names.add(r.getName());
        names.sort(null);
        Condition c = new Condition();
        c.setType("Recommended");
        c.setStatus("Unknown");
        c.setReason("NoConditions");
        c.setMessage(
                "Conditional update to "
                        + u.getRelease().getVersion()
                        + " has risks ("
                        + String.join(", ", names)
                        + "), but no conditions.");
        return c;
    }

    private void bucket(
            Map<Long, Map<Long, List<ConditionalUpdate>>> buckets,
            ConditionalUpdate u,
            String v,
            StringBuilder err) {
        if (!SemVer.isValid(v)) {
            if (!quiet)
                err.append("warning: Cannot parse SemVer available update \"")
                        .append(v)
                        .append("\": not a semantic version");
            return;
        }
        SemVer s = SemVer.parse(v);
        buckets.computeIfAbsent(s.major(), k -> new TreeMap<>(Comparator.reverseOrder()))
                .computeIfAbsent(s.minor(), k -> new ArrayList<>())
                .add(u);
    }

    private static String sortedJoin(List<String> items) {
        List<String> sorted = new ArrayList<>(items);
        sorted.sort(null);
        return String.join(", ", sorted);
    }

    private static String indent(String message) {
        return nz(message).replace("\n", "\n  ");
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}
