package io.upshift.status.model;

/** How a node is doing, most urgent first (the order nodes are listed in). */
public enum NodeAssessment {
    Degraded,
    Unavailable,
    Progressing,
    Excluded,
    Outdated,
    Completed
}
