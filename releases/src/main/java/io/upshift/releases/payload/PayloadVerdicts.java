package io.upshift.releases.payload;

import io.upshift.releases.inclusion.Inclusion;
import io.upshift.releases.inclusion.InclusionRules;
import io.upshift.releases.manifest.Manifest;
import java.util.ArrayList;
import java.util.List;

/**
 * What becomes of every document of a payload, in payload order: applied, skipped when applying
 * (loaded, but its capabilities are not enabled or an override leaves it unmanaged), or excluded
 * when loading (profile, feature set, feature gate, exclude id).
 */
public final class PayloadVerdicts {

    public enum Verdict {
        INCLUDED,
        SKIPPED,
        EXCLUDED
    }

    /** One document; {@code index} is its 1-based task index when loaded, 0 when not. */
    public record Row(Verdict verdict, int index, Manifest manifest, String reason) {}

    private PayloadVerdicts() {}

    /**
     * Every document of {@code payload}; {@code applyRules} are the rules checked when applying
     * (capabilities, overrides).
     */
    public static List<Row> of(Payload payload, InclusionRules applyRules) {
        List<Row> rows = new ArrayList<>(payload.manifests().size() + payload.excluded().size());
        int next = 0;
        for (Payload.Excluded e : payload.excluded()) {
            for (; next < e.before(); next++) rows.add(loaded(payload, next, applyRules));
            rows.add(new Row(Verdict.EXCLUDED, 0, e.manifest(), e.reason()));
        }
        for (; next < payload.manifests().size(); next++)
            rows.add(loaded(payload, next, applyRules));
        return rows;
    }

    private static Row loaded(Payload payload, int i, InclusionRules applyRules) {
        Manifest m = payload.manifests().get(i);
        Inclusion decision = Inclusion.decide(m, applyRules);
        return new Row(
                decision.included() ? Verdict.INCLUDED : Verdict.SKIPPED,
                i + 1,
                m,
                decision.reason());
    }
}
