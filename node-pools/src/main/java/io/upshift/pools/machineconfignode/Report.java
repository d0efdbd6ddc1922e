package io.upshift.pools.machineconfignode;

/**
 * One condition as a step of the update reports it: its type, status ("True", "False", "Unknown"),
 * reason and message.
 */
public record Report(ConditionType type, String status, String reason, String message) {
    public static final String TRUE = "True", FALSE = "False", UNKNOWN = "Unknown";
}
