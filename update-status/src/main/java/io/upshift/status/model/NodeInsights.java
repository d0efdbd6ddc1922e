package io.upshift.status.model;

import io.upshift.api.update.NodeInsight;
import io.upshift.base.conditions.Conditions;
import java.util.Comparator;

/**
 * A node insight read back into the phase and assessment it was made from, and the order nodes are
 * listed in (most urgent assessment first, then phase, then name), so that node insights read back
 * from their own objects list as the assessment listed them.
 */
public final class NodeInsights {
    /**
     * The order of {@code PoolAssessor}'s node facts, from the insights alone; unknown words sort
     * last.
     */
    public static final Comparator<NodeInsight> DISPLAY_ORDER =
            Comparator.comparingInt((NodeInsight n) -> rank(NodeAssessment.class, assessment(n)))
                    .thenComparingInt(n -> rank(NodePhase.class, phase(n)))
                    .thenComparing(NodeInsight::name);

    private NodeInsights() {}

    /**
     * Draining, Updating, Rebooting, Paused, Pending, Updated, or the Updating condition's other
     * reason.
     */
    public static String phase(NodeInsight n) {
        String reason = Conditions.META.reason(n.conditions(), NodeInsight.UPDATING);
        return reason.equals("Completed") ? "Updated" : reason;
    }

    /** Degraded, Unavailable, Progressing, Excluded, Outdated, Completed, or Unknown. */
    public static String assessment(NodeInsight n) {
        boolean updating = Conditions.META.isTrue(n.conditions(), NodeInsight.UPDATING);
        if (Conditions.META.isTrue(n.conditions(), NodeInsight.DEGRADED)) {
            return "Degraded";
        }
        if (Conditions.META.isFalse(n.conditions(), NodeInsight.AVAILABLE) && !updating) {
            return "Unavailable";
        }
        return switch (phase(n)) {
            case "Paused" -> "Excluded";
            case "Pending" -> "Outdated";
            case "Draining", "Updating", "Rebooting" -> "Progressing";
            case "Updated" -> "Completed";
            default -> "Unknown";
        };
    }

    @SuppressWarnings("EnumOrdinal") // these enums are declared in the order they rank
    private static <E extends Enum<E>> int rank(Class<E> type, String name) {
        for (E e : type.getEnumConstants()) {
            if (e.name().equals(name)) {
                return e.ordinal();
            }
        }
        return Integer.MAX_VALUE;
    }
}
