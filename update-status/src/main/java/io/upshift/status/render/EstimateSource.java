package io.upshift.status.render;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * Whose estimates {@code upshift status} shows: {@code oc}'s (the text byte for byte as {@code oc
 * adm upgrade status} prints it) or {@code upshift}'s, from the run-level times and the nodes'
 * measured update times, with what each rests on.
 */
public enum EstimateSource {
    oc,
    upshift;

    public static EstimateSource parse(String value) {
        try {
            return valueOf(value);
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new IllegalArgumentException(
                    "invalid value for --estimate: "
                            + value
                            + " (must be one of "
                            + Arrays.stream(values())
                                    .map(Enum::name)
                                    .collect(Collectors.joining(", "))
                            + ")");
        }
    }
}
