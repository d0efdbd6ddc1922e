package io.upshift.status.render;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Which sections {@code upshift status} shows in detail. */
public enum Details {
    none,
    all,
    nodes,
    health,
    operators;

    public static Details parse(String value) {
        try {
            return valueOf(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "invalid value for --details: "
                            + value
                            + " (must be one of "
                            + Arrays.stream(values())
                                    .map(Enum::name)
                                    .collect(Collectors.joining(", "))
                            + ")");
        }
    }

    boolean shows(Details section) {
        return this == all || this == section;
    }
}
