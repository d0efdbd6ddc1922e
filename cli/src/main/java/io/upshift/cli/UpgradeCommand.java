package io.upshift.cli;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.upshift.core.conditions.Conditions;
import io.upshift.core.upgrade.UpgradeView;
import io.upshift.core.version.SemVer;
import java.io.PrintWriter;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code upshift upgrade}: show the update state, or request an update by setting ClusterVersion spec.desiredUpdate. */
@Command(name = "upgrade", mixinStandardHelpOptions = true,
        description = {"Without options: show the cluster's update state and recommended updates (as oc adm upgrade).",
                "With --to, --to-image, --to-latest or --clear: request or clear an update (spec.desiredUpdate)."})
public final class UpgradeCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--to", paramLabel = "VERSION", description = "Update to this version, one of the available (or, with --allow-not-recommended, conditional) updates.")
    String to;

    @Option(names = "--to-image", paramLabel = "REF", description = "Update to this release image (by digest; by tag only with --force).")
    String toImage;

    @Option(names = "--to-latest", description = "Update to the newest available update.")
    boolean toLatest;

    @Option(names = "--clear", description = "Clear a requested update that has not started.")
    boolean clear;

    @Option(names = "--force", description = "Accept an unverified release and override blocking preconditions.")
    boolean force;

    @Option(names = "--allow-not-recommended", description = "Allow a conditional update whose risks apply to this cluster.")
    boolean allowNotRecommended;

    @Option(names = "--include-not-recommended", description = "Also list updates with known issues.")
    boolean includeNotRecommended;

    @Mixin
    KubeconfigOption kube;

    @Mixin
    VerboseOption verbose;

    @Override
    public Integer call() {
        int modes = (to != null ? 1 : 0) + (toImage != null ? 1 : 0) + (toLatest ? 1 : 0) + (clear ? 1 : 0);
        if (modes > 1) throw new IllegalArgumentException("only one of --to, --to-image, --to-latest and --clear may be given");
        PrintWriter out = spec.commandLine().getOut(), err = spec.commandLine().getErr();
        try (KubernetesClient client = kube.connect()) {
            ClusterVersion cv = ClusterVersions.require(client);
            if (modes == 0) {
                UpgradeView.Output o = UpgradeView.render(cv, includeNotRecommended);
                out.print(o.out());
                err.print(o.err());
                out.flush();
                err.flush();
                return 0;
            }
            String current = cv.getStatus() == null || cv.getStatus().getDesired() == null ? "" : cv.getStatus().getDesired().getVersion();
            if (clear) {
                if (cv.getSpec().getDesiredUpdate() == null) {
                    out.println("info: No update in progress");
                } else {
                    cv.getSpec().setDesiredUpdate(null);
                    ClusterVersions.update(client, cv);
                    out.println("Cleared the update field, still at " + current);
                }
                out.flush();
                return 0;
            }
            Update update = new Update();
            update.setForce(force ? Boolean.TRUE : null);
            if (toImage != null) {
                if (!toImage.contains("@sha256:") && !force) {
                    throw new IllegalArgumentException("--to-image " + toImage + " is by tag: only a release named by digest can be verified (use --force to accept the risk)");
                }
                update.setImage(toImage);
            } else {
                Release target = toLatest ? latest(cv).orElse(null) : find(cv, to, err);
                if (target == null) {
                    if (toLatest) {
                        out.println("info: Cluster is already at the latest available version " + current);
                        out.flush();
                        return 0;
                    }
                    throw new IllegalArgumentException("the update " + to + " is not one of the available updates: "
                            + String.join(", ", availableVersions(cv)) + " (give --to-image to name a release outside them)");
                }
                if (target.getVersion().equals(current)) {
                    out.println("info: Cluster is already at version " + current);
                    out.flush();
                    return 0;
                }
                update.setVersion(target.getVersion());
                update.setImage(target.getImage());
            }
            if (force) err.println("warning: --force overrides cluster verification of your supplied release image and waives any update precondition failures.");
            cv.getSpec().setDesiredUpdate(update);
            ClusterVersions.update(client, cv);
            out.println(update.getVersion() != null ? "Requested update to " + update.getVersion() : "Requested update to release image " + update.getImage());
            out.flush();
            err.flush();
            return 0;
        }
    }

    private Release find(ClusterVersion cv, String version, PrintWriter err) {
        if (!SemVer.isValid(version)) throw new IllegalArgumentException("--to " + version + " is not a semantic version");
        var s = cv.getStatus();
        if (s == null) return null;
        for (Release r : s.getAvailableUpdates() == null ? List.<Release>of() : s.getAvailableUpdates()) if (version.equals(r.getVersion())) return r;
        for (ConditionalUpdate c : s.getConditionalUpdates() == null ? List.<ConditionalUpdate>of() : s.getConditionalUpdates()) {
            if (!version.equals(c.getRelease().getVersion())) continue;
            Condition rec = Conditions.META.find(c.getConditions(), "Recommended");
            if (rec != null && "True".equals(rec.getStatus())) return c.getRelease();
            String why = rec == null ? "its Recommended condition is missing" : "Recommended=" + rec.getStatus() + " " + rec.getReason() + ": " + rec.getMessage();
            if (!allowNotRecommended) {
                throw new IllegalArgumentException("the update to " + version + " is not recommended (" + why + "); pass --allow-not-recommended to accept its risks");
            }
            err.println("warning: with --allow-not-recommended you have accepted the risks of " + version + " and bypassed " + why);
            return c.getRelease();
        }
        return null;
    }

    private static Optional<Release> latest(ClusterVersion cv) {
        var list = cv.getStatus() == null || cv.getStatus().getAvailableUpdates() == null ? List.<Release>of() : cv.getStatus().getAvailableUpdates();
        return list.stream().filter(r -> SemVer.isValid(r.getVersion())).max(Comparator.comparing(r -> SemVer.parse(r.getVersion())));
    }

    private static List<String> availableVersions(ClusterVersion cv) {
        var list = cv.getStatus() == null || cv.getStatus().getAvailableUpdates() == null ? List.<Release>of() : cv.getStatus().getAvailableUpdates();
        return list.isEmpty() ? List.of("(none)") : list.stream().map(Release::getVersion).toList();
    }
}
