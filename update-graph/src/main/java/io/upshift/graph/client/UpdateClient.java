package io.upshift.graph.client;

import io.upshift.base.version.SemVer;
import io.upshift.graph.model.Graph;
import io.upshift.graph.model.GraphException;
import io.upshift.graph.model.GraphJson;
import io.upshift.graph.updates.AvailableUpdates;
import io.upshift.graph.updates.GraphUpdates;
import io.upshift.graph.updates.RetrievedUpdates;
import io.upshift.graph.updates.UpdatesException;
import io.upshift.graph.updates.UpdatesRequest;
import io.upshift.releases.image.Egress;
import io.upshift.runtime.fetch.BoundExceeded;
import io.upshift.runtime.fetch.BoundedExchange;
import java.io.IOException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Asks the graph service for the cluster's updates and keeps {@link AvailableUpdates} current: one
 * attempt per {@link #refresh} call when due, the cluster's way out ({@link Egress}: its proxy and
 * trusted CA bundle, as each attempt finds them, as upstream's transport is built for each fetch),
 * the whole exchange within the timeout and the answer within {@link #MAX_BYTES} (streamed, refused
 * at the limit), and the reference's failure reasons (RemoteFailed, ResponseFailed,
 * ResponseInvalid, VersionNotFound, or why no request could be made).
 */
public final class UpdateClient {

    /** Answers larger than this are refused: a real graph is well under a megabyte. */
    public static final int MAX_BYTES = 32 << 20;

    private final Duration timeout;
    private final RandomGenerator random;
    private static final Logger LOG = LoggerFactory.getLogger(UpdateClient.class);

    /** The client of the egress last used, kept while the egress stays the same. */
    private Egress egress;

    private HttpClient http;

    public UpdateClient(Duration timeout, RandomGenerator random) {
        this.timeout = timeout;
        this.random = random;
    }

    /** As {@link #refresh(AvailableUpdates, UpdatesRequest, Egress, Instant)}, going direct. */
    public AvailableUpdates refresh(AvailableUpdates state, UpdatesRequest request, Instant now) {
        return refresh(state, request, Egress.NONE, now);
    }

    /**
     * The next state: unchanged when no refresh is due, else the outcome of one attempt made the
     * {@code egress} way.
     */
    public AvailableUpdates refresh(
            AvailableUpdates state, UpdatesRequest request, Egress egress, Instant now) {
        if (!state.due(request, now)) return state;
        Optional<UpdatesRequest.Problem> problem = request.problem();
        if (problem.isPresent())
            return state.failed(
                    request, problem.get().reason(), problem.get().message(), now, random);
        try {
            return state.succeeded(request, fetch(request, client(egress)), now, random);
        } catch (UpdatesException e) {
            return state.failed(
                    request,
                    e.reason(),
                    "Unable to retrieve available updates: " + e.getMessage(),
                    now,
                    random);
        }
    }

    private synchronized HttpClient client(Egress e) throws UpdatesException {
        if (http == null || !e.equals(egress)) {
            try {
                http = e.httpClient(timeout);
            } catch (IOException x) {
                throw new UpdatesException("RemoteFailed", x.getMessage(), x);
            }
            egress = e;
        }
        return http;
    }

    RetrievedUpdates fetch(UpdatesRequest request, HttpClient http) throws UpdatesException {
        byte[] body;
        int status;
        // the whole exchange, not just its headers, within the timeout; the body streamed and
        // refused past MAX_BYTES
        try (BoundedExchange x =
                BoundedExchange.send(
                        http,
                        HttpRequest.newBuilder(request.uri())
                                .header("Accept", "application/json")
                                .GET()
                                .build(),
                        new BoundedExchange.Bounds(MAX_BYTES, timeout))) {
            status = x.status();
            try {
                body = x.readAll();
            } catch (IOException e) {
                throw new UpdatesException("ResponseFailed", e.getMessage(), e);
            }
        } catch (IOException e) {
            throw new UpdatesException(
                    "RemoteFailed",
                    e instanceof BoundExceeded
                            ? e.getMessage()
                            : request.uri()
                                    + ": "
                                    + (e.getMessage() == null
                                            ? e.getClass().getSimpleName()
                                            : e.getMessage()),
                    e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new UpdatesException("RemoteFailed", "interrupted", e);
        }
        if (status != 200) {
            throw new UpdatesException(
                    "ResponseFailed",
                    "unexpected HTTP status: " + status + " from " + request.uri());
        }
        Graph graph;
        try {
            graph = GraphJson.read(body, MAX_BYTES);
        } catch (GraphException e) {
            throw new UpdatesException("ResponseInvalid", e.getMessage(), e);
        }
        return GraphUpdates.compute(
                graph,
                SemVer.parse(request.version()),
                request.channel(),
                request.migratingToMulti(),
                w -> LOG.warn("update graph {}: {}", request.uri(), w));
    }
}
