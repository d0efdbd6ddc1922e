package io.upshift.api.update;

/** Severity of a health insight, in increasing order. */
public enum ImpactLevel {
    Unknown,
    Info,
    Warning,
    Error,
    Critical
}
