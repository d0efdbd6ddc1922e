package io.upshift.graph.client;

/** Finds a Service's cluster IP (a seam: tests answer without an API server). */
@FunctionalInterface
public interface ServiceLookup {

    /**
     * The cluster IP of Service {@code namespace/name}; the exception's message says why there is
     * none, in the API server's words ({@code services "thanos-querier" not found}).
     */
    String clusterIp(String namespace, String name) throws Exception;
}
