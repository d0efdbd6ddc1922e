package io.upshift.clusterversion.merge;

import com.fasterxml.jackson.databind.JsonNode;
import io.fabric8.kubernetes.api.model.Quantity;
import java.math.BigDecimal;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Equality of API objects as JSON, in the sense of Kubernetes' semantic equality: an absent field
 * equals its zero value (null, false, 0, "", [], {}), since the API server omits zero values;
 * numbers compare by value; lists compare in order. Resource quantities are compared by amount
 * where the merge asks for it ({@link #sameQuantity}).
 */
public final class Semantic {
    private Semantic() {}

    public static boolean equal(JsonNode a, JsonNode b) {
        return difference(a, b, "") == null;
    }

    /**
     * The first path (such as {@code .spec.template.spec.containers[0].image}) where {@code a} and
     * {@code b} differ, or null.
     */
    public static String difference(JsonNode a, JsonNode b, String path) {
        if (isZero(a) && isZero(b))
            return absent(a) != absent(b) && POINTERS.matcher(path).find() ? path : null;
        if (a == null || b == null) return path.isEmpty() ? "." : path;
        if (a.isObject() && b.isObject()) {
            Set<String> keys = new LinkedHashSet<>();
            a.fieldNames().forEachRemaining(keys::add);
            b.fieldNames().forEachRemaining(keys::add);
            for (String k : keys) {
                String d = difference(a.get(k), b.get(k), path + "." + k);
                if (d != null) return d;
            }
            return null;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) return path;
            for (int i = 0; i < a.size(); i++) {
                String d = difference(a.get(i), b.get(i), path + "[" + i + "]");
                if (d != null) return d;
            }
            return null;
        }
        if (a.isNumber() && b.isNumber())
            return a.decimalValue().compareTo(b.decimalValue()) == 0 ? null : path;
        return a.getNodeType() == b.getNodeType() && a.asText().equals(b.asText())
                ? null
                : (path.isEmpty() ? "." : path);
    }

    /**
     * Fields Go holds as pointers in the pod template and the ServiceAccount, where the zero value
     * set is not the field absent ({@code runAsUser: 0} runs as root, {@code
     * automountServiceAccountToken: false} mounts no token): their merge keeps what the manifest
     * gives ({@link Fields#replacePresent}), and a live object lacking it differs.
     */
    private static final Pattern POINTERS =
            Pattern.compile(
                    "(\\.securityContext\\.(privileged|runAsUser|runAsGroup|runAsNonRoot|fsGroup"
                            + "|readOnlyRootFilesystem|allowPrivilegeEscalation)"
                            + "|\\.(automountServiceAccountToken|hostUsers|shareProcessNamespace)"
                            + "|\\.template\\.spec\\.priority)$");

    private static boolean absent(JsonNode n) {
        return n == null || n.isNull() || n.isMissingNode();
    }

    /** Absent, or the zero value of its type. */
    public static boolean isZero(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) return true;
        if (n.isBoolean()) return !n.booleanValue();
        if (n.isNumber()) return n.decimalValue().signum() == 0;
        if (n.isTextual()) return n.textValue().isEmpty();
        if (n.isContainerNode()) return n.isEmpty();
        return false;
    }

    /** Two maps of resource quantities ({@code "500m"}, {@code 0.5}) that name the same amounts. */
    public static boolean sameQuantities(JsonNode a, JsonNode b) {
        if (isZero(a) || isZero(b)) return isZero(a) && isZero(b);
        if (!a.isObject() || !b.isObject() || a.size() != b.size()) return false;
        for (Iterator<String> it = a.fieldNames(); it.hasNext(); ) {
            String k = it.next();
            if (!b.has(k) || !sameQuantity(a.get(k), b.get(k))) return false;
        }
        return true;
    }

    static boolean sameQuantity(JsonNode a, JsonNode b) {
        try {
            BigDecimal x = Quantity.getAmountInBytes(new Quantity(a.asText()));
            BigDecimal y = Quantity.getAmountInBytes(new Quantity(b.asText()));
            return x.compareTo(y) == 0;
        } catch (RuntimeException e) {
            return a.asText().equals(b.asText());
        }
    }
}
