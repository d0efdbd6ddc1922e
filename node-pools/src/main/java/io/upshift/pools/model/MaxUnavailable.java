package io.upshift.pools.model;

/**
 * A MachineConfigPool's {@code maxUnavailable}: an integer or a percentage of the pool's nodes,
 * rounded down; unset or 0 means 1, and a percentage never gives less than 1.
 */
public final class MaxUnavailable {

    private MaxUnavailable() {}

    /**
     * @param value the spec value: null, an Integer, or a String such as "10%" or "3"
     * @throws IllegalArgumentException naming the value when it is neither
     */
    public static int resolve(Object value, int nodes) {
        if (value == null) return 1;
        int n;
        if (value instanceof Integer i) {
            n = i;
        } else {
            String s = value.toString().strip();
            try {
                if (s.endsWith("%")) {
                    int percent = Integer.parseInt(s.substring(0, s.length() - 1));
                    if (percent < 0 || percent > 100) throw new NumberFormatException();
                    n = Math.max(1, nodes * percent / 100);
                } else {
                    n = Integer.parseInt(s);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(
                        "spec.maxUnavailable \""
                                + value
                                + "\" is neither a number of nodes nor a percentage (0%-100%)");
            }
        }
        if (n < 0) throw new IllegalArgumentException("spec.maxUnavailable " + n + " is negative");
        return Math.max(1, n);
    }
}
