package io.upshift.clusterversion.upgrade;

import static io.upshift.base.gofmt.GoQuote.quote;
import static io.upshift.base.gofmt.GoStrings.trimSpace;

import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.Update;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * {@code oc adm upgrade accept} (openshift/oc main, {@code pkg/cli/admin/upgrade/accept}; not yet
 * in release-4.19): which conditional-update risks the administrator accepts, {@code
 * spec.desiredUpdate.acceptRisks}. "A,B,C-" adds A and B and removes C; {@code --replace} sets the
 * list to the ones named; {@code --clear} empties it.
 */
public final class AcceptRisks {

    /**
     * The request: names to add and to remove (each sorted, as oc's sets list them), and the two
     * modes.
     */
    public record Request(
            SortedSet<String> add, SortedSet<String> remove, boolean replace, boolean clear) {}

    private AcceptRisks() {}

    /**
     * The command line as oc checks it; a usage error is thrown as {@link IllegalArgumentException}
     * with oc's text (the caller adds its "See ... -h" line). {@code args} are the positional
     * arguments.
     */
    public static Request parse(List<String> args, boolean replace, boolean clear) {
        if (clear && replace)
            throw new IllegalArgumentException("--clear and --replace are mutually exclusive");
        if (clear && !args.isEmpty())
            throw new IllegalArgumentException("unknown command " + quote(String.join(" ", args)));
        if (!clear && args.isEmpty())
            throw new IllegalArgumentException("no positional arguments given");
        if (args.size() > 1)
            throw new IllegalArgumentException("multiple positional arguments given");
        SortedSet<String> add = new TreeSet<>(), remove = new TreeSet<>();
        if (args.size() == 1) {
            for (String s : args.get(0).split(",", -1)) {
                String risk = trimSpace(s);
                if (risk.equals("-") || risk.isEmpty())
                    throw new IllegalArgumentException("illegal risk " + quote(risk));
                if (risk.endsWith("-")) remove.add(risk.substring(0, risk.length() - 1));
                else add.add(risk);
            }
        }
        SortedSet<String> both = new TreeSet<>(add);
        both.retainAll(remove);
        if (!both.isEmpty())
            throw new IllegalArgumentException(
                    "requested risks with both Risk and Risk-: " + String.join(",", both));
        if (replace && !remove.isEmpty())
            throw new IllegalArgumentException(
                    "The suffix '-' on risks is not allowed if --replace is specified");
        return new Request(add, remove, replace, clear);
    }

    /**
     * What {@code upgrade accept} does to the cluster: write the new list, or say nothing changes.
     */
    public static Decision decide(Request request, ClusterVersion cv) {
        List<String> existing = of(cv.getSpec() == null ? null : cv.getSpec().getDesiredUpdate());
        List<String> accepted = apply(existing, request);
        // oc compares with go-cmp, for which a missing list and an empty one differ.
        if (Objects.equals(accepted, existing))
            return new Decision.Unchanged(List.of(), "info: Accept risks are not changed\n");
        String message =
                "info: Accept risks are ["
                        + String.join(", ", accepted == null ? List.of() : accepted)
                        + "]\n";
        return new Decision.Patch(
                List.of(),
                DesiredUpdatePatch.acceptRisks(accepted),
                "unable to accept risks",
                written -> message);
    }

    /** The new list; null (no list) when it comes out empty, as oc builds it. */
    static List<String> apply(List<String> existing, Request request) {
        if (request.clear()) return null;
        List<String> out = new ArrayList<>();
        if (!request.replace() && existing != null) {
            for (String name : existing) if (!request.remove().contains(name)) out.add(name);
        }
        for (String name : request.add())
            if (!out.contains(name) && !request.remove().contains(name)) out.add(name);
        return out.isEmpty() ? null : out;
    }

    /** The names in {@code spec.desiredUpdate.acceptRisks}, or null when the list is absent. */
    static List<String> of(Update update) {
        Object raw =
                update == null || update.getAdditionalProperties() == null
                        ? null
                        : update.getAdditionalProperties().get("acceptRisks");
        if (!(raw instanceof List<?> list)) return null;
        List<String> names = new ArrayList<>();
        for (Object o : list)
            names.add(
                    o instanceof Map<?, ?> m && m.get("name") != null
                            ? String.valueOf(m.get("name"))
                            : "");
        return names;
    }
}
