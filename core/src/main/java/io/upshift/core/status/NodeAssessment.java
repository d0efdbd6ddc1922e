package io.upshift.core.status;

/** How a node is doing, most urgent first (the order nodes are listed in). */
public enum NodeAssessment {
    Degraded,
    Unavailable,
    Progressing,
    Excluded,
    Outdated,
    Completed
}
