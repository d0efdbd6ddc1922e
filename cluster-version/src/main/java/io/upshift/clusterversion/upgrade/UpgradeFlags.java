package io.upshift.clusterversion.upgrade;

/**
 * The flags of {@code oc adm upgrade} that request or clear an update; {@code to} and {@code
 * toImage} are empty when not given. {@code --include-not-recommended} only changes the bare view,
 * so it is not here.
 */
public record UpgradeFlags(
        String to,
        String toImage,
        boolean toLatest,
        boolean toMultiArch,
        boolean clear,
        boolean force,
        boolean allowExplicitUpgrade,
        boolean allowUpgradeWithWarnings,
        boolean allowNotRecommended) {
    public UpgradeFlags {
        to = to == null ? "" : to;
        toImage = toImage == null ? "" : toImage;
    }

    /** True when no flag asks for a change: the command shows the update state instead. */
    public boolean viewOnly() {
        return !clear && !toMultiArch && !toLatest && to.isEmpty() && toImage.isEmpty();
    }
}
