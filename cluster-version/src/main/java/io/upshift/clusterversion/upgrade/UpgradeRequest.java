package io.upshift.clusterversion.upgrade;

import static io.upshift.base.gofmt.GoStrings.indentLines;
import static io.upshift.clusterversion.upgrade.UpgradeGuards.nz;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.upshift.base.conditions.Conditions;
import io.upshift.base.version.SemVerSyntax;
import io.upshift.releases.metadata.PullSpec;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code oc adm upgrade} with a target or {@code --clear} (openshift/oc {@code
 * pkg/cli/admin/upgrade/upgrade.go}, release-4.19, with main's keeping of {@code acceptRisks}):
 * which flags go together, which update the flags name among the cluster's available and
 * conditional updates, what is refused and in which words. The result is a {@link Decision}; the
 * caller reads the ClusterVersion and writes the patch.
 */
public final class UpgradeRequest {
    static final String FORCE_WARNING =
            "warning: --force overrides cluster verification of your supplied release image and"
                + " waives any update precondition failures. Only use this if you are testing"
                + " unsigned release images or you are working around a known bug in the"
                + " cluster-version operator and you have verified the authenticity of the provided"
                + " image yourself.\n";

    /**
     * The flags' own verdict, before the cluster is read: warnings for stderr, and a refusal or
     * none.
     */
    public record FlagCheck(List<String> warnings, Optional<String> refusal) {}

    private UpgradeRequest() {}

    /** oc's checks of the flags alone (its {@code Complete}), in its order. */
    public static FlagCheck check(UpgradeFlags f) {
        if (f.clear()
                && (!f.toImage().isEmpty()
                        || !f.to().isEmpty()
                        || f.toLatest()
                        || f.toMultiArch())) {
            return refuse("--clear may not be specified with any other flags");
        }
        if (f.toMultiArch() && (!f.to().isEmpty() || !f.toImage().isEmpty() || f.toLatest())) {
            return refuse("--to-multi-arch may not be used with --to, --to-image, or --to-latest");
        }
        if (!f.to().isEmpty() && !f.toImage().isEmpty())
            return refuse("only one of --to or --to-image may be provided");
        if (!f.to().isEmpty()) {
            Optional<String> problem = SemVerSyntax.problem(f.to());
            if (problem.isPresent())
                return refuse(
                        "--to must be a semantic version (e.g. 4.0.1 or 4.1.0-nightly-20181104): "
                                + problem.get());
        }
        if (!f.toImage().isEmpty()) {
            PullSpec ref;
            try {
                ref = PullSpec.parse(f.toImage());
            } catch (IllegalArgumentException e) {
                return refuse("--to-image must be a valid image pull spec: " + e.getMessage());
            }
            if (ref.registry().isEmpty() && ref.namespace().isEmpty())
                return refuse(
                        "--to-image must be a valid image pull spec: no registry or repository"
                                + " specified");
            if (ref.id().isEmpty() && ref.tag().isEmpty())
                return refuse(
                        "--to-image must be a valid image pull spec: no tag or digest specified");
            if (!ref.tag().isEmpty()) {
                if (!f.force()) {
                    return refuse(
                            "--to-image must be a by-digest pull spec, unless --force is also set,"
                                + " because release images that are not accessed via digest cannot"
                                + " be verified by the cluster.  Even when --force is set, using"
                                + " tags is not recommended, although we continue to allow it for"
                                + " backwards compatibility");
                }
                return new FlagCheck(
                        List.of(
                                "warning: Using by-tag pull specs is dangerous, and while we still"
                                    + " allow it in combination with --force for backward"
                                    + " compatibility, it would be much safer to pass a by-digest"
                                    + " pull spec instead\n"),
                        Optional.empty());
            }
        }
        return new FlagCheck(List.of(), Optional.empty());
    }

    /**
     * What oc does with these flags on this ClusterVersion (its {@code Run}, all but the bare
     * view).
     */
    public static Decision decide(UpgradeFlags f, ClusterVersion cv) {
        if (f.clear()) return clear(cv);
        if (f.toMultiArch()) return toMultiArch(f, cv);
        return toTarget(f, cv);
    }

    private static Decision clear(ClusterVersion cv) {
        Update original = cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate();
        if (original == null)
            return new Decision.Unchanged(List.of(), "info: No update in progress\n");
        // The accepted risks outlive the update they were accepted for (oc main keeps them).
        List<String> risks = AcceptRisks.of(original);
        String body =
                risks == null
                        ? DesiredUpdatePatch.clear()
                        : DesiredUpdatePatch.of("", "", "", false, risks);
        return new Decision.Patch(
                List.of(),
                body,
                "Unable to cancel current rollout",
                written -> {
                    Release desired =
                            written.getStatus() == null || written.getStatus().getDesired() == null
                                    ? new Release()
                                    : written.getStatus().getDesired();
                    return equivalent(original, desired)
                            ? "Cleared the update field, still at "
                                    + versionOrImage(desired.getVersion(), desired.getImage())
                                    + "\n"
                            : "Cancelled requested upgrade to "
                                    + versionOrImage(original.getVersion(), original.getImage())
                                    + "\n";
                });
    }

    private static Decision toMultiArch(UpgradeFlags f, ClusterVersion cv) {
        Update existing = cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate();
        if (existing != null && "Multi".equals(existing.getArchitecture())) {
            return new Decision.Refused(
                    List.of(),
                    "info: Update to multi cluster architecture has already been requested");
        }
        List<String> warnings = new ArrayList<>();
        Optional<String> refusal = guard(f, cv, warnings);
        if (refusal.isPresent()) return new Decision.Refused(warnings, refusal.get());
        if (f.force()) warnings.add(FORCE_WARNING);
        String body =
                DesiredUpdatePatch.of(
                        "Multi",
                        nz(desired(cv).getVersion()),
                        "",
                        f.force(),
                        AcceptRisks.of(existing));
        return new Decision.Patch(
                warnings,
                body,
                "Unable to upgrade",
                written -> "Requested update to multi cluster architecture\n");
    }

    private static Decision toTarget(UpgradeFlags f, ClusterVersion cv) {
        Release current = desired(cv);
        if (!f.to().isEmpty() && f.to().equals(current.getVersion()))
            return new Decision.Unchanged(
                    List.of(), "info: Cluster is already at version " + f.to() + "\n");
        if (!f.toImage().isEmpty() && f.toImage().equals(current.getImage()))
            return new Decision.Unchanged(
                    List.of(), "info: Cluster is already at " + f.toImage() + "\n");

        List<String> warnings = new ArrayList<>();
        List<Release> possible = new ArrayList<>();
        Map<String, Condition> notRecommended = new HashMap<>();
        Release update = null;
        for (Release available :
                list(cv.getStatus() == null ? null : cv.getStatus().getAvailableUpdates())) {
            if (matches(available, f, "available updates", warnings)) {
                // A digest match keeps the pull spec the administrator gave.
                update =
                        release(
                                available.getVersion(),
                                f.toImage().isEmpty() ? available.getImage() : f.toImage());
                break;
            }
            possible.add(available);
        }
        if (update == null) {
            for (ConditionalUpdate conditional :
                    list(cv.getStatus() == null ? null : cv.getStatus().getConditionalUpdates())) {
                Condition c = Conditions.META.find(conditional.getConditions(), "Recommended");
                if (c == null || "True".equals(c.getStatus())) continue;
                Release r =
                        conditional.getRelease() == null ? new Release() : conditional.getRelease();
                if (matches(r, f, "available conditional updates", warnings)) {
                    if (!f.allowNotRecommended()) {
                        return new Decision.Refused(
                                warnings,
                                "the update "
                                        + nz(r.getVersion())
                                        + " is not one of the recommended updates, but is available"
                                        + " as a conditional update. To accept the "
                                        + c.getType()
                                        + "="
                                        + nz(c.getStatus())
                                        + " risk and to proceed with update use"
                                        + " --allow-not-recommended.\n  Reason: "
                                        + nz(c.getReason())
                                        + "\n  Message: "
                                        + indentLines(nz(c.getMessage()))
                                        + "\n");
                    }
                    update = release(r.getVersion(), r.getImage());
                    warnings.add(accepted(r.getVersion(), c));
                    break;
                }
                if (f.allowNotRecommended()) {
                    possible.add(r);
                    notRecommended.put(nz(r.getImage()), c);
                }
            }
        }
        if (update == null && !f.toImage().isEmpty() && f.allowExplicitUpgrade()) {
            update = release("", f.toImage());
            warnings.add(
                    "warning: The requested upgrade image is not one of the available updates. You"
                        + " have used --allow-explicit-upgrade for the update to proceed anyway\n");
        }
        possible.sort(ReleaseOrder.newestFirst(Release::getVersion));
        if (f.toLatest() && !possible.isEmpty()) {
            update = release(possible.get(0).getVersion(), possible.get(0).getImage());
            Condition c = notRecommended.get(nz(update.getImage()));
            if (c != null) warnings.add(accepted(update.getVersion(), c));
        }
        if (update == null) return noTarget(f, cv, possible, warnings);

        if (f.force()) warnings.add(FORCE_WARNING);
        Optional<String> refusal = guard(f, cv, warnings);
        if (refusal.isPresent()) return new Decision.Refused(warnings, refusal.get());
        Update existing = cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate();
        String body =
                DesiredUpdatePatch.of(
                        "",
                        nz(update.getVersion()),
                        nz(update.getImage()),
                        f.force(),
                        AcceptRisks.of(existing));
        String done =
                nz(update.getVersion()).isEmpty()
                        ? "Requested update to release image " + nz(update.getImage()) + "\n"
                        : "Requested update to " + update.getVersion() + "\n";
        return new Decision.Patch(warnings, body, "Unable to upgrade", written -> done);
    }

    /**
     * Why no update could be picked, or (for --to-latest with nothing newer) that there is nothing
     * to do.
     */
    private static Decision noTarget(
            UpgradeFlags f, ClusterVersion cv, List<Release> possible, List<String> warnings) {
        ClusterOperatorStatusCondition retrieved =
                Conditions.CLUSTER.find(
                        cv.getStatus() == null ? null : cv.getStatus().getConditions(),
                        "RetrievedUpdates");
        String nextStep =
                (f.toImage().isEmpty() ? "--to-image" : "--allow-explicit-upgrade")
                        + " to continue with "
                        + (f.toLatest() ? "an" : "the")
                        + " update";
        if (retrieved != null && !"True".equals(retrieved.getStatus())) {
            return new Decision.Refused(
                    warnings,
                    "cannot refresh available updates:\n"
                            + UpgradeGuards.reasonAndMessage(retrieved)
                            + "\n\nspecify "
                            + nextStep
                            + ".");
        }
        if (possible.isEmpty() && f.allowNotRecommended()) {
            return new Decision.Refused(
                    warnings,
                    "no recommended or conditional updates, specify "
                            + nextStep
                            + " or wait for new updates to be available.");
        }
        if (possible.isEmpty() && f.toLatest()) {
            return new Decision.Unchanged(
                    warnings,
                    "info: Cluster is already at the latest available version "
                            + nz(desired(cv).getVersion())
                            + "\n");
        }
        if (possible.isEmpty())
            return new Decision.Refused(
                    warnings,
                    "no recommended updates, specify "
                            + nextStep
                            + " or wait for new updates to be available.");
        List<String> versions = possible.stream().map(r -> nz(r.getVersion())).toList();
        return new Decision.Refused(
                warnings,
                "the update is not one of the possible targets: "
                        + String.join(", ", versions)
                        + ". specify "
                        + nextStep
                        + ".");
    }

    /** The client-side guards: a refusal, or with --allow-upgrade-with-warnings a warning. */
    private static Optional<String> guard(
            UpgradeFlags f, ClusterVersion cv, List<String> warnings) {
        Optional<String> concerns = UpgradeGuards.check(cv);
        if (concerns.isEmpty()) return Optional.empty();
        if (!f.allowUpgradeWithWarnings())
            return Optional.of(
                    concerns.get()
                            + "\n\n"
                            + "If you want to upgrade anyway, use --allow-upgrade-with-warnings.");
        warnings.add(
                "warning: --allow-upgrade-with-warnings is bypassing: " + concerns.get() + "\n");
        return Optional.empty();
    }

    /**
     * oc's {@code targetMatch}: the version equals --to, or the image equals --to-image or has its
     * digest. A target image that does not parse is a warning (and no match).
     */
    private static boolean matches(
            Release target, UpgradeFlags f, String where, List<String> warnings) {
        if (!f.to().isEmpty() && f.to().equals(target.getVersion())) return true;
        if (f.toImage().isEmpty()) return false;
        if (f.toImage().equals(target.getImage())) return true;
        try {
            String targetId = PullSpec.parse(nz(target.getImage())).id(),
                    wantedId = PullSpec.parse(f.toImage()).id();
            return !wantedId.isEmpty() && targetId.equals(wantedId);
        } catch (IllegalArgumentException e) {
            warnings.add(
                    "warning: unable to calculate match for the update target in "
                            + where
                            + ": "
                            + e.getMessage()
                            + "\n");
            return false;
        }
    }

    private static String accepted(String version, Condition c) {
        return "warning: with --allow-not-recommended you have accepted the risks with "
                + nz(version)
                + " and bypassed "
                + c.getType()
                + "="
                + nz(c.getStatus())
                + " "
                + nz(c.getReason())
                + ": "
                + nz(c.getMessage())
                + "\n";
    }

    /**
     * oc's {@code updateIsEquivalent}: same image when both have one, else same version when both
     * have one.
     */
    static boolean equivalent(Update a, Release b) {
        if (!nz(a.getImage()).isEmpty() && !nz(b.getImage()).isEmpty())
            return a.getImage().equals(b.getImage());
        if (!nz(a.getVersion()).isEmpty() && !nz(b.getVersion()).isEmpty())
            return a.getVersion().equals(b.getVersion());
        return false;
    }

    private static String versionOrImage(String version, String image) {
        if (!nz(version).isEmpty()) return version;
        if (!nz(image).isEmpty()) return image;
        return "<unknown>";
    }

    private static Release desired(ClusterVersion cv) {
        return cv.getStatus() == null || cv.getStatus().getDesired() == null
                ? new Release()
                : cv.getStatus().getDesired();
    }

    private static Release release(String version, String image) {
        Release r = new Release();
        r.setVersion(version);
        r.setImage(image);
        return r;
    }

    private static <T> List<T> list(List<T> l) {
        return l == null ? List.of() : l;
    }

    private static FlagCheck refuse(String message) {
        return new FlagCheck(List.of(), Optional.of(message));
    }
}
