package io.upshift.api.update;

/** Which part of the cluster an insight is about. */
public enum ScopeType {
    ControlPlane,
    WorkerPool,
    Cluster
}
