package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodList;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudgetList;
import io.fabric8.kubernetes.client.server.mock.KubernetesAttributesExtractor;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.crud.KubernetesCrudDispatcherException;
import io.fabric8.kubernetes.client.utils.Serialization;
import io.fabric8.mockwebserver.crud.AttributeSet;
import io.fabric8.mockwebserver.dsl.HttpMethod;
import io.fabric8.mockwebserver.http.Buffer;
import io.fabric8.mockwebserver.http.Headers;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.fabric8.mockwebserver.http.Response;
import io.fabric8.mockwebserver.http.WebSocket;
import io.fabric8.mockwebserver.http.WebSocketListener;
import io.upshift.api.json.Mappers;
import io.upshift.base.kube.Disruptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fabric8's CRUD mock server, made to answer as a real kube-apiserver does where the controllers
 * depend on it:
 *
 * <ul>
 *   <li>a JSON merge patch is RFC 7386 (the mock appends lists and keeps keys set to null);
 *   <li>an update of {@code /status} is refused with 409 when its resourceVersion is not the
 *       current one (the mock never conflicts there);
 *   <li>the Eviction subresource ({@code POST .../pods/<name>/eviction}) ends the pod unless a
 *       PodDisruptionBudget covering it allows no disruption now (429, as Kubernetes answers): the
 *       pod is terminating (deletionTimestamp) for a grace period, longer while a finalizer holds
 *       it, then gone;
 *   <li>pods can be listed by {@code fieldSelector=spec.nodeName};
 *   <li>discovery ({@code /version}, {@code /api}, {@code /apis} ...) is served, so that kubectl
 *       and oc can name resources ({@link Discovery}), and a list is of its own kind ({@code
 *       ClusterOperatorList}, not {@code v1 List}), its items in key order (namespace, name), which
 *       typed clients such as oc's require; every answer names its JSON as such (Content-Type); a
 *       client asking for a Table gets a custom resource's printer columns ({@link TablePrinter}),
 *       as {@code oc get clusterversion} shows them;
 *   <li>an update or merge patch that changes an immutable field (selectors, a Service's cluster
 *       IP, a claim's spec, a Job's pod template...) is refused with 422 ({@link
 *       ImmutableFieldCheck});
 *   <li>TokenReviews and SubjectAccessReviews are answered, not stored ({@link AccessReviews});
 *   <li>every request is authenticated by its bearer token ({@link Tokens}: 401 for a token the
 *       server did not issue, anonymous without one) and authorized by RBAC from the roles and
 *       bindings stored ({@link RbacAuthorizer}: 403 with kube-apiserver's message), the built-in
 *       roles of a fresh kube-apiserver bootstrapped ({@code cluster-admin} for {@code
 *       system:masters}, discovery for the authenticated).
 * </ul>
 *
 * On request ({@link #validateStatusAgainstCrds}), an update of a custom resource's {@code /status}
 * is validated against its CRD as stored, as kube-apiserver validates it ({@link StatusSchemas}).
 *
 * <p>Finding one object by name takes an index ({@link NameIndex}), not a scan of every object
 * stored. It also records every request ({@link #requests()}), can drop fields of a kind on every
 * write, as an older API server drops fields it does not know ({@link #dropOnWrite}), and can put a
 * faulty network in front of one client ({@link #faults}).
 */
public final class ApiServerDispatcher extends KubernetesCrudDispatcher {
    private static final Pattern EVICTION =
            Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/eviction");
    private static final Pattern LIST =
            Pattern.compile(
                    "\\{\\s*\"apiVersion\"\\s*:\\s*\"v1\"\\s*,\\s*\"kind\"\\s*:\\s*\"List\"\\s*,");
    private static final Pattern NODE_SELECTOR =
            Pattern.compile("/api/v1/pods\\?fieldSelector=spec\\.nodeName%3D([^&]+)");

    private final RequestLog requests = new RequestLog();
    private final NameIndex names = new NameIndex();
    private final Tokens tokens = new Tokens();
    private final RbacAuthorizer authorizer = new RbacAuthorizer(this::stored);
    private final List<String> accessRefusals = new CopyOnWriteArrayList<>();
    private final AccessReviews reviews = new AccessReviews(tokens::user, authorizer);
    private final Map<String, Set<String>> dropped = new ConcurrentHashMap<>();
    private static final String CRDS = "/apis/apiextensions.k8s.io/v1/customresourcedefinitions";
    private volatile Faults faults;
    private volatile boolean installedKindsOnly;
    private volatile boolean namespaceLifecycle;
    private final Discovery discovery = new Discovery(this::crds);
    private final List<Interleaved> interleaved = new CopyOnWriteArrayList<>();

    /**
     * Another writer's merge patch of {@code path}, carried out just before the first request that
     * {@code which} matches.
     */
    private record Interleaved(
            Predicate<RequestLog.Request> which, String path, String mergePatch) {}

    /**
     * Writes are serialised here, so that a precondition checked before a write still holds during
     * it.
     */
    private final Object writes = new Object();

    private final List<String> refusals = new CopyOnWriteArrayList<>();
    private volatile StatusSchemas statusSchemas;
    private volatile StatusSchemas objectSchemas;
    private volatile Duration evictionGrace = Duration.ofMillis(300);
    private final ScheduledExecutorService terminations =
            Executors.newSingleThreadScheduledExecutor(
                    r -> {
                        Thread t = new Thread(r, "api-server-pod-terminations");
                        t.setDaemon(true);
                        return t;
                    });

    /**
     * How long an evicted pod stays terminating before it is gone (longer while a finalizer holds
     * it).
     */
    public ApiServerDispatcher evictionGrace(Duration grace) {
        this.evictionGrace = grace;
        return this;
    }

    public RequestLog requests() {
        return requests;
    }

    /**
     * Who the API server says tokens belong to and what they may do: TokenReviews and
     * SubjectAccessReviews are answered from it.
     */
    public AccessReviews accessReviews() {
        return reviews;
    }

    /**
     * The messages of the requests refused so far as unauthenticated (401) or forbidden (403),
     * oldest first: e.g. {@code deployments.apps "x" is forbidden: User "system:serviceaccount:..."
     * cannot delete resource ...}.
     */
    public List<String> accessRefusals() {
        return List.copyOf(accessRefusals);
    }

    Tokens tokens() {
        return tokens;
    }

    /** The messages of the writes refused so far for changing an immutable field, oldest first. */
    public List<String> immutableRefusals() {
        return List.copyOf(refusals);
    }

    /**
     * From now on, an update of a custom resource's {@code /status} that its CRD (as stored now,
     * whatever version is installed at the time of the write) rejects is refused with 422, in
     * kube-apiserver's words ({@link StatusSchemas}).
     */
    public ApiServerDispatcher validateStatusAgainstCrds() {
        statusSchemas = new StatusSchemas(name -> super.handleGet(CRDS + "/" + name));
        return this;
    }

    /**
     * From now on, a kind of a group Kubernetes does not build in is served only while a CRD of it
     * is installed, as kube-apiserver serves it: any other request under {@code /apis/<group>/} is
     * answered 404 ({@code 404 page not found}, as kube-apiserver answers a group it does not
     * know). fabric8's mock serves any path, which the demo's cluster relies on (it installs no
     * CRDs).
     */
    public ApiServerDispatcher installedKindsOnly() {
        installedKindsOnly = true;
        return this;
    }

    /**
     * From now on, an object is created only in a namespace that exists, as kube-apiserver's
     * NamespaceLifecycle admission allows it: otherwise 404 {@code namespaces "x" not found}.
     * fabric8's mock creates anything anywhere.
     */
    public ApiServerDispatcher namespaceLifecycle() {
        namespaceLifecycle = true;
        return this;
    }

    /** A create in a namespace: {@code POST /api/v1/namespaces/<ns>/<resource>} or a group's. */
    private static final Pattern NAMESPACED_CREATE =
            Pattern.compile("/(?:api/v1|apis/[^/]+/[^/]+)/namespaces/([^/]+)/[^/]+");

    /**
     * The Kubernetes API groups kube-apiserver v1.32 serves with no CRD (its {@code /apis}), the
     * core group apart.
     */
    private static final Set<String> BUILT_IN_GROUPS =
            Set.of(
                    "apiregistration.k8s.io",
                    "apps",
                    "events.k8s.io",
                    "authentication.k8s.io",
                    "authorization.k8s.io",
                    "autoscaling",
                    "batch",
                    "certificates.k8s.io",
                    "networking.k8s.io",
                    "policy",
                    "rbac.authorization.k8s.io",
                    "storage.k8s.io",
                    "admissionregistration.k8s.io",
                    "apiextensions.k8s.io",
                    "scheduling.k8s.io",
                    "coordination.k8s.io",
                    "node.k8s.io",
                    "discovery.k8s.io",
                    "flowcontrol.apiserver.k8s.io");

    /**
     * Whether {@code path} is served: anything outside {@code /apis/<group>/<version>/<resource>}
     * of a group not built in, or a resource a CRD installed now serves at that version.
     */
    private boolean served(String path) {
        if (!path.startsWith("/apis/")) return true;
        String[] parts = path.substring("/apis/".length()).split("/");
        if (parts.length < 3 || BUILT_IN_GROUPS.contains(parts[0])) return true;
        String group = parts[0], version = parts[1];
        String plural = parts[2].equals("namespaces") && parts.length >= 5 ? parts[4] : parts[2];
        for (JsonNode crd : crds()) {
            JsonNode spec = crd.path("spec");
            if (!spec.path("group").asText().equals(group)
                    || !spec.path("names").path("plural").asText().equals(plural)) continue;
            for (JsonNode v : spec.path("versions"))
                if (v.path("name").asText().equals(version) && v.path("served").asBoolean(true))
                    return true;
        }
        return false;
    }

    /** The messages of the writes refused so far by a CRD's schema, oldest first. */
    public List<String> schemaRefusals() {
        List<String> all = new ArrayList<>();
        for (StatusSchemas s : new StatusSchemas[] {statusSchemas, objectSchemas})
            if (s != null) all.addAll(s.refusals());
        return all;
    }

    /**
     * From now on, {@code field} is removed wherever it occurs in written objects of {@code kind}.
     */
    public ApiServerDispatcher dropOnWrite(String kind, String field) {
        dropped.computeIfAbsent(kind, k -> ConcurrentHashMap.newKeySet()).add(field);
        return this;
    }

    /**
     * Just before the first request {@code which} matches is answered, another writer's JSON merge
     * patch of {@code path} lands: the request then finds the object changed since its client read
     * it, as on a busy cluster.
     */
    public ApiServerDispatcher beforeFirst(
            Predicate<RequestLog.Request> which, String path, String mergePatch) {
        interleaved.add(new Interleaved(which, path, mergePatch));
        return this;
    }

    /**
     * From now on, the requests of the client {@code faults} names go through that faulty network.
     */
    public ApiServerDispatcher faults(Faults faults) {
        this.faults = faults;
        return this;
    }

    @Override
    @SuppressWarnings("ModifyCollectionInEnhancedForLoop") // interleaved is copy-on-write
    public MockResponse dispatch(RecordedRequest request) {
        User user = tokens.authenticate(request.getHeader("Authorization"));
        RequestLog.Request seen = requests.record(request, user == null ? "" : user.name());
        MockResponse refused = refusal(request, user);
        if (refused != null) return typed(refused);
        for (Interleaved i : interleaved) {
            if (i.which().test(seen) && interleaved.remove(i)) {
                super.handlePatch(
                        new RecordedRequest(
                                "HTTP/1.1",
                                HttpMethod.PATCH,
                                i.path(),
                                Headers.builder()
                                        .add("Content-Type", "application/merge-patch+json")
                                        .build(),
                                new Buffer(i.mergePatch().getBytes(StandardCharsets.UTF_8))));
            }
        }
        Faults f = faults;
        switch (f == null ? Faults.Fault.NONE : f.decide(request)) {
            case SERVER_ERROR -> {
                return status(500, "InternalError", "injected failure");
            }
            case CONFLICT -> {
                return status(409, "Conflict", "injected conflict");
            }
            case INVALID -> {
                return status(422, "Invalid", f.rejection());
            }
            case LOST_ANSWER -> {
                MockResponse answer = answer(request);
                if (answer.getBody() == null || answer.getBody().size() == 0) answer.setBody("{}");
                return answer.setBodyDelay(Faults.LOST);
            }
            case DEAD_WATCH -> {
                return new MockResponse().withWebSocketUpgrade(new WebSocketListener() {});
            }
            case EXPIRED_WATCH -> {
                return new MockResponse()
                        .withWebSocketUpgrade(
                                new WebSocketListener() {
                                    @Override
                                    public void onOpen(WebSocket socket, Response response) {
                                        socket.send(
                                                "{\"type\":\"ERROR\",\"object\":{\"apiVersion\":\"v1\",\"kind\":\"Status\",\"status\":\"Failure\",\"reason\":\"Expired\",\"code\":410,\"message\":\"too"
                                                    + " old resource version\"}}");
                                    }
                                });
            }
            case NONE -> {
                return typed(answer(request));
            }
        }
        throw new IllegalStateException();
    }

    /**
     * 401 for a request that does not authenticate, 403 for one RBAC does not allow; null when it
     * may go on.
     */
    private MockResponse refusal(RecordedRequest request, User user) {
        if (user == null) {
            accessRefusals.add("Unauthorized: " + request.getMethod() + " " + request.getPath());
            return status(401, "Unauthorized", "Unauthorized");
        }
        if (user.in(User.MASTERS))
            return null; // allowed before RBAC is asked, as kube-apiserver's privileged groups
        RequestAttributes a = RequestAttributes.of(request.getMethod(), request.getPath());
        RbacAuthorizer.Decision decision = authorizer.authorize(user, a);
        if (decision.allowed()) return null;
        String message = RbacAuthorizer.forbiddenMessage(user, a, decision.reason());
        accessRefusals.add(message);
        ObjectNode status =
                Mappers.JSON.createObjectNode().put("kind", "Status").put("apiVersion", "v1");
        status.putObject("metadata");
        status.put("status", "Failure").put("message", message).put("reason", "Forbidden");
        if (a.resourceRequest()) {
            ObjectNode details = status.putObject("details");
            if (!a.name().isEmpty()) details.put("name", a.name());
            if (!a.group().isEmpty()) details.put("group", a.group());
            details.put("kind", a.resource());
        }
        status.put("code", 403);
        return new MockResponse().setResponseCode(403).setBody(status.toString());
    }

    /**
     * Stores {@code object} as a client with every right would create it (replacing it when it
     * exists), without a request: for what is there before any client comes (the built-in roles,
     * deploy/'s RBAC).
     */
    void store(JsonNode object) {
        String apiVersion = object.path("apiVersion").asText();
        String namespace = object.path("metadata").path("namespace").asText();
        String collection =
                (apiVersion.contains("/") ? "/apis/" : "/api/")
                        + apiVersion
                        + (namespace.isEmpty() ? "" : "/namespaces/" + namespace)
                        + "/"
                        + object.path("kind").asText().toLowerCase(Locale.ROOT)
                        + "s";
        var headers = Headers.builder().add("Content-Type", "application/json").build();
        byte[] body = object.toString().getBytes(StandardCharsets.UTF_8);
        MockResponse created =
                handleCreate(
                        new RecordedRequest(
                                "HTTP/1.1",
                                HttpMethod.POST,
                                collection,
                                headers,
                                new Buffer(body)));
        if (created.code() == 409) {
            created =
                    handleUpdate(
                            new RecordedRequest(
                                    "HTTP/1.1",
                                    HttpMethod.PUT,
                                    collection
                                            + "/"
                                            + object.path("metadata").path("name").asText(),
                                    headers,
                                    new Buffer(body)));
        }
        if (created.code() >= 300)
            throw new IllegalStateException(
                    "cannot store " + collection + ": " + created.getBody().readUtf8());
    }

    /** The objects stored at a collection's path. */
    private List<JsonNode> stored(String collection) {
        MockResponse answer = super.handleGet(collection);
        if (answer.code() != 200 || answer.getBody() == null) return List.of();
        List<JsonNode> items = new ArrayList<>();
        try {
            Mappers.JSON.readTree(answer.getBody().readUtf8()).path("items").forEach(items::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return items;
    }

    /**
     * A custom resource's answer as the Table its CRD's printer columns make, when it has any;
     * otherwise as it is.
     */
    private MockResponse asTable(String path, MockResponse answer) {
        var crd = discovery.crdOf(path.split("\\?")[0]);
        if (answer.code() != 200 || answer.getBody() == null || crd.isEmpty()) return answer;
        String body = answer.getBody().readUtf8();
        try {
            var table = TablePrinter.table(crd.get(), Mappers.JSON.readTree(body), Instant.now());
            return answer.setBody(table.isPresent() ? table.get().toString() : body);
        } catch (IOException e) {
            return answer.setBody(body);
        }
    }

    /**
     * The mock sends no Content-Type; a real API server names the JSON it sends, and clients that
     * ask for protobuf first (oc's, kubectl's typed clients) read an unnamed body as protobuf.
     */
    private static MockResponse typed(MockResponse answer) {
        if (answer.header("Content-Type") == null && answer.getWebSocketListener() == null)
            answer.setHeader("Content-Type", "application/json");
        return answer;
    }

    private MockResponse answer(RecordedRequest request) {
        MockResponse review = reviews.answer(request);
        if (review != null) return review;
        String path = request.getPath();
        if (installedKindsOnly && !served(path.split("\\?")[0]))
            return new MockResponse()
                    .setResponseCode(404)
                    .setHeader("Content-Type", "text/plain; charset=utf-8")
                    .setBody("404 page not found\n");
        if (namespaceLifecycle && "POST".equals(request.getMethod())) {
            Matcher m = NAMESPACED_CREATE.matcher(path.split("\\?")[0]);
            if (m.matches() && super.handleGet("/api/v1/namespaces/" + m.group(1)).code() != 200)
                return status(404, "NotFound", "namespaces \"" + m.group(1) + "\" not found");
        }
        if ("POST".equals(request.getMethod())) {
            Matcher m = EVICTION.matcher(path.split("\\?")[0]);
            if (m.matches()) return evict(m.group(1), m.group(2));
        }
        if ("GET".equals(request.getMethod())) {
            Matcher m = NODE_SELECTOR.matcher(path);
            if (m.matches()) return podsOn(m.group(1));
            var document = discovery.answer(path.split("\\?")[0]);
            if (document.isPresent())
                return new MockResponse()
                        .setResponseCode(200)
                        .setHeader("Content-Type", "application/json")
                        .setBody(document.get().toString());
            if (TablePrinter.wanted(request.getHeader("Accept")) && !path.contains("watch=true"))
                return asTable(path, super.dispatch(request));
        }
        return super.dispatch(request);
    }

    /**
     * The mock calls every list {@code v1 List} and keeps no order; a real API server names the
     * kind and group-version of its items and lists them in its storage's key order: by namespace,
     * then name.
     */
    @Override
    public MockResponse handleGet(String path) {
        MockResponse answer = super.handleGet(path);
        if (answer.code() != 200 || answer.getBody() == null) return answer;
        String body = answer.getBody().readUtf8();
        if (!LIST.matcher(body).lookingAt()) return answer.setBody(body);
        var kind = discovery.listKind(path.split("\\?")[0]);
        if (kind.isEmpty()) return answer.setBody(body);
        try {
            ObjectNode list = (ObjectNode) Mappers.JSON.readTree(body);
            List<JsonNode> items = new ArrayList<>();
            list.path("items").forEach(items::add);
            items.sort(
                    Comparator.comparing(
                                    (JsonNode i) -> i.path("metadata").path("namespace").asText(""))
                            .thenComparing(i -> i.path("metadata").path("name").asText("")));
            ObjectNode named =
                    Mappers.JSON
                            .createObjectNode()
                            .put("apiVersion", kind.get()[1])
                            .put("kind", kind.get()[0]);
            list.remove(List.of("apiVersion", "kind"));
            named.setAll(list);
            named.putArray("items").addAll(items);
            return answer.setBody(named.toString());
        } catch (IOException e) {
            return answer.setBody(body);
        }
    }

    @Override
    public MockResponse handleCreate(RecordedRequest request) {
        synchronized (writes) {
            if (request.getPath().split("\\?")[0].equals(CRDS)) return createCrd(request);
            request = pruned(objectSchemas, request.getPath().split("\\?")[0], request, null);
            MockResponse invalid = invalidObject(request.getPath().split("\\?")[0], null, request);
            if (invalid != null) return invalid;
            return super.handleCreate(withoutDropped(request));
        }
    }

    /**
     * A CRD created as kube-apiserver creates one: the status sent is not kept, and the server's
     * own controllers accept its names and establish it at once (within moments on a real server),
     * whoever created it and whether or not a simulated cluster runs.
     */
    private MockResponse createCrd(RecordedRequest request) {
        JsonNode body;
        try {
            body = asNode(new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
        } catch (KubernetesCrudDispatcherException e) {
            return super.handleCreate(request); // not JSON: the create itself refuses it
        }
        if (!(body instanceof ObjectNode crd)) return super.handleCreate(request);
        String now = Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
        ObjectNode status = crd.putObject("status");
        var conditions = status.putArray("conditions");
        for (String[] c :
                new String[][] {
                    {"NamesAccepted", "NoConflicts", "no conflicts found"},
                    {"Established", "InitialNamesAccepted", "the initial names have been accepted"}
                }) {
            conditions
                    .addObject()
                    .put("type", c[0])
                    .put("status", "True")
                    .put("reason", c[1])
                    .put("message", c[2])
                    .put("lastTransitionTime", now);
        }
        status.set("acceptedNames", crd.path("spec").path("names").deepCopy());
        ArrayNode stored = status.putArray("storedVersions");
        for (JsonNode v : crd.path("spec").path("versions"))
            if (v.path("storage").asBoolean()) stored.add(v.path("name").asText());
        return super.handleCreate(
                withoutDropped(
                        new RecordedRequest(
                                request.getHttpVersion(),
                                request.method(),
                                request.getPath(),
                                request.getHeaders(),
                                new Buffer(crd.toString().getBytes(StandardCharsets.UTF_8)))));
    }

    @Override
    public MockResponse handleUpdate(RecordedRequest request) {
        synchronized (writes) {
            String path = request.getPath().split("\\?")[0];
            if (path.endsWith("/status")) {
                MockResponse conflict = statusConflict(path, request);
                if (conflict != null) return conflict;
                request = pruned(statusSchemas, path, request, "status");
                MockResponse invalid = invalidStatus(path, request);
                if (invalid != null) return invalid;
            } else {
                request = pruned(objectSchemas, path, request, null);
                MockResponse refused = immutableChange(path, request, false);
                if (refused != null) return refused;
                MockResponse current = handleGet(path);
                if (current.code() == 200) {
                    MockResponse invalid = invalidObject(path, current, request);
                    if (invalid != null) return invalid;
                }
            }
            return super.handleUpdate(withoutDropped(request));
        }
    }

    @Override
    public MockResponse handlePatch(RecordedRequest request) {
        synchronized (writes) {
            String path = request.getPath().split("\\?")[0];
            String type = request.getHeader("Content-Type");
            if (!path.endsWith("/status")
                    && type != null
                    && type.startsWith("application/merge-patch+json")) {
                MockResponse refused = immutableChange(path, request, true);
                if (refused != null) return refused;
            }
            return super.handlePatch(withoutDropped(request));
        }
    }

    @Override
    public MockResponse handleDelete(String path) {
        synchronized (writes) {
            return super.handleDelete(path);
        }
    }

    @Override
    public void processEvent(
            String path,
            AttributeSet pathAttributes,
            AttributeSet oldAttributes,
            GenericKubernetesResource resource,
            String newState) {
        super.processEvent(path, pathAttributes, oldAttributes, resource, newState);
        if (path != null && path.startsWith(RbacAuthorizer.RBAC)) authorizer.changed();
        names.stored(
                (KubernetesAttributesExtractor) getAttributeExtractor(),
                pathAttributes,
                resource,
                newState);
    }

    @Override
    public Map.Entry<AttributeSet, String> findResource(AttributeSet query) {
        return NameIndex.names(query) ? names.find(map, query) : super.findResource(query);
    }

    /**
     * RFC 7386: objects merge key by key, null removes a key, anything else (lists included)
     * replaces.
     */
    @Override
    public JsonNode merge(JsonNode baseResource, String updatedResource)
            throws KubernetesCrudDispatcherException {
        return mergePatch(baseResource.deepCopy(), asNode(updatedResource));
    }

    static JsonNode mergePatch(JsonNode target, JsonNode patch) {
        if (!patch.isObject()) return patch;
        ObjectNode out =
                target != null && target.isObject()
                        ? (ObjectNode) target
                        : Mappers.JSON.createObjectNode();
        for (Iterator<Map.Entry<String, JsonNode>> it = patch.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (e.getValue().isNull()) out.remove(e.getKey());
            else out.set(e.getKey(), mergePatch(out.get(e.getKey()), e.getValue()));
        }
        return out;
    }

    @Override
    public void touchResourceVersion(JsonNode currentResource, JsonNode updatedResource) {
        drop(updatedResource);
        super.touchResourceVersion(currentResource, updatedResource);
    }

    /**
     * 422 as kube-apiserver answers a write that changes an immutable field ({@link
     * ImmutableFieldCheck}); null to go on.
     */
    private MockResponse immutableChange(String path, RecordedRequest request, boolean mergePatch) {
        MockResponse current = handleGet(path);
        if (current.code() != 200) return null;
        try {
            JsonNode have = asNode(current.getBody().readUtf8());
            JsonNode body =
                    asNode(new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
            String refusal =
                    ImmutableFieldCheck.refusal(
                            have, mergePatch ? mergePatch(have.deepCopy(), body) : body);
            if (refusal == null) return null;
            refusals.add(refusal);
            return status(422, "Invalid", refusal);
        } catch (KubernetesCrudDispatcherException e) {
            return null; // not JSON: the write itself will refuse it
        }
    }

    /**
     * 422 when a custom resource written (created, or replacing what {@code current} holds) is one
     * its CRD's schema rejects, once {@link #validateObjectsAgainstCrds()} asked for it; null to go
     * on.
     */
    private MockResponse invalidObject(String path, MockResponse current, RecordedRequest request) {
        StatusSchemas schemas = objectSchemas;
        if (schemas == null || path.startsWith(CRDS)) return null;
        try {
            JsonNode stored = current == null ? null : asNode(current.getBody().readUtf8());
            String refusal =
                    schemas.objectRefusal(
                            path,
                            stored,
                            asNode(
                                    new String(
                                            request.getBody().getBytes(), StandardCharsets.UTF_8)));
            return refusal == null ? null : status(422, "Invalid", refusal);
        } catch (KubernetesCrudDispatcherException e) {
            return null; // not JSON: the write itself will refuse it
        }
    }

    /**
     * {@code request} with the fields of {@code part} its CRD does not declare pruned, as
     * kube-apiserver prunes them, when {@code schemas} validate writes; as it is otherwise.
     */
    private RecordedRequest pruned(
            StatusSchemas schemas, String path, RecordedRequest request, String part) {
        if (schemas == null || path.startsWith(CRDS)) return request;
        try {
            JsonNode body =
                    schemas.pruned(
                            path,
                            asNode(
                                    new String(
                                            request.getBody().getBytes(), StandardCharsets.UTF_8)),
                            part);
            if (body == null) return request;
            return new RecordedRequest(
                    request.getHttpVersion(),
                    request.method(),
                    request.getPath(),
                    request.getHeaders(),
                    new Buffer(body.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (KubernetesCrudDispatcherException e) {
            return request;
        }
    }

    /**
     * From now on, a custom resource created or updated is validated against its CRD's schema as
     * stored, as kube-apiserver validates it (what is outside metadata and status; fields the
     * schema does not declare pass, as kube-apiserver prunes them): 422 otherwise.
     */
    public ApiServerDispatcher validateObjectsAgainstCrds() {
        objectSchemas = new StatusSchemas(name -> super.handleGet(CRDS + "/" + name));
        return this;
    }

    /** 422 when the status written is one the resource's CRD rejects; null to go on. */
    private MockResponse invalidStatus(String path, RecordedRequest request) {
        StatusSchemas schemas = statusSchemas;
        if (schemas == null) return null;
        String resourcePath = path.substring(0, path.length() - "/status".length());
        MockResponse current = handleGet(resourcePath);
        if (current.code() != 200) return null;
        try {
            String refusal =
                    schemas.refusal(
                            resourcePath,
                            asNode(current.getBody().readUtf8()),
                            asNode(
                                    new String(
                                            request.getBody().getBytes(), StandardCharsets.UTF_8)));
            return refusal == null ? null : status(422, "Invalid", refusal);
        } catch (KubernetesCrudDispatcherException e) {
            return null; // not JSON: the update itself will refuse it
        }
    }

    private MockResponse statusConflict(String path, RecordedRequest request) {
        String resourcePath = path.substring(0, path.length() - "/status".length());
        MockResponse current = handleGet(resourcePath);
        if (current.code() != 200) return null;
        try {
            String have =
                    asNode(current.getBody().readUtf8())
                            .path("metadata")
                            .path("resourceVersion")
                            .asText();
            JsonNode body =
                    asNode(new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
            String basedOn = body.path("metadata").path("resourceVersion").asText();
            if (basedOn.isEmpty() || basedOn.equals(have)) return null;
            return status(
                    409,
                    "Conflict",
                    "Operation cannot be fulfilled on "
                            + body.path("kind").asText()
                            + " \""
                            + body.path("metadata").path("name").asText()
                            + "\": the object has been modified; please apply your changes to the"
                            + " latest version and try again");
        } catch (KubernetesCrudDispatcherException e) {
            return null; // not JSON: the update itself will refuse it
        }
    }

    private RecordedRequest withoutDropped(RecordedRequest request) {
        boolean crd = request.getPath().split("\\?")[0].startsWith(CRDS);
        if (dropped.isEmpty() && !crd) return request;
        try {
            JsonNode body =
                    asNode(new String(request.getBody().getBytes(), StandardCharsets.UTF_8));
            boolean pruned = crd && CrdSchemaFields.prune(body); // and drop() runs in any case
            boolean changed = drop(body) || pruned;
            if (!changed) return request;
            return new RecordedRequest(
                    request.getHttpVersion(),
                    request.method(),
                    request.getPath(),
                    request.getHeaders(),
                    new Buffer(body.toString().getBytes(StandardCharsets.UTF_8)));
        } catch (KubernetesCrudDispatcherException e) {
            return request;
        }
    }

    /** Removes the dropped fields of the object's kind; true when it removed any. */
    private boolean drop(JsonNode object) {
        Set<String> fields = dropped.get(object.path("kind").asText());
        return fields != null && dropFields(object, fields);
    }

    private static boolean dropFields(JsonNode node, Set<String> fields) {
        boolean any = false;
        if (node instanceof ObjectNode o) {
            for (String f : fields) any |= o.remove(f) != null;
        }
        for (JsonNode child : node) any |= dropFields(child, fields);
        return any;
    }

    private List<JsonNode> crds() {
        List<JsonNode> all = new ArrayList<>();
        try {
            Mappers.JSON
                    .readTree(super.handleGet(CRDS).getBody().readUtf8())
                    .path("items")
                    .forEach(all::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return all;
    }

    private MockResponse podsOn(String node) {
        PodList all =
                Serialization.unmarshal(
                        handleGet("/api/v1/pods").getBody().readUtf8(), PodList.class);
        all.setItems(
                all.getItems().stream()
                        .filter(p -> p.getSpec() != null && node.equals(p.getSpec().getNodeName()))
                        .toList());
        return new MockResponse().setResponseCode(200).setBody(Serialization.asJson(all));
    }

    private MockResponse evict(String namespace, String name) {
        synchronized (writes) {
            List<Pod> pods =
                    Serialization.unmarshal(
                                    handleGet("/api/v1/namespaces/" + namespace + "/pods")
                                            .getBody()
                                            .readUtf8(),
                                    PodList.class)
                            .getItems();
            Pod pod =
                    pods.stream()
                            .filter(p -> p.getMetadata().getName().equals(name))
                            .findFirst()
                            .orElse(null);
            if (pod == null) return status(404, "NotFound", "pods \"" + name + "\" not found");
            // a pod already terminating is evicted again at once, its budget unasked, as Kubernetes
            // does
            if (pod.getMetadata().getDeletionTimestamp() != null) return evicted();
            MockResponse budgets =
                    handleGet("/apis/policy/v1/namespaces/" + namespace + "/poddisruptionbudgets");
            if (budgets.code() == 200) {
                for (PodDisruptionBudget pdb :
                        Serialization.unmarshal(
                                        budgets.getBody().readUtf8(), PodDisruptionBudgetList.class)
                                .getItems()) {
                    if (Disruptions.covers(pdb, pod) && Disruptions.allowed(pdb, pods) == 0) {
                        return status(
                                429,
                                "TooManyRequests",
                                "Cannot evict pod as it would violate the pod's disruption"
                                        + " budget.");
                    }
                }
            }
            terminate(pod);
            return evicted();
        }
    }

    /**
     * An evicted pod terminates as a kubelet ends it: marked for deletion now, gone once its grace
     * period has passed and no finalizer holds it any more.
     */
    private void terminate(Pod pod) {
        String path =
                "/api/v1/namespaces/"
                        + pod.getMetadata().getNamespace()
                        + "/pods/"
                        + pod.getMetadata().getName();
        super.handlePatch(
                new RecordedRequest(
                        "HTTP/1.1",
                        HttpMethod.PATCH,
                        path,
                        Headers.builder()
                                .add("Content-Type", "application/merge-patch+json")
                                .build(),
                        new Buffer(
                                ("{\"metadata\":{\"deletionTimestamp\":\""
                                                + Instant.now().truncatedTo(ChronoUnit.SECONDS)
                                                + "\",\"deletionGracePeriodSeconds\":"
                                                + evictionGrace.toSeconds()
                                                + "}}")
                                        .getBytes(StandardCharsets.UTF_8))));
        String uid = pod.getMetadata().getUid();
        // a timer on the in-process server; the next request sees what it did
        var unused =
                terminations.schedule(
                        () -> removeWhenFree(path, uid),
                        evictionGrace.toMillis(),
                        TimeUnit.MILLISECONDS);
    }

    // a timer on the in-process server; the next request sees what it did
    @SuppressWarnings("FutureReturnValueIgnored")
    private void removeWhenFree(String path, String uid) {
        synchronized (writes) {
            MockResponse now = super.handleGet(path);
            if (now.code() != 200) return;
            Pod pod = Serialization.unmarshal(now.getBody().readUtf8(), Pod.class);
            if (!uid.equals(pod.getMetadata().getUid())) return;
            if (pod.getMetadata().getFinalizers() == null
                    || pod.getMetadata().getFinalizers().isEmpty()) {
                super.handleDelete(path);
                return;
            }
        }
        terminations.schedule(
                () -> removeWhenFree(path, uid),
                Math.max(100, evictionGrace.toMillis()),
                TimeUnit.MILLISECONDS);
    }

    private static MockResponse evicted() {
        return new MockResponse()
                .setResponseCode(201)
                .setBody(
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\",\"code\":201}");
    }

    private static MockResponse status(int code, String reason, String message) {
        return new MockResponse()
                .setResponseCode(code)
                .setBody(
                        "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"reason\":\""
                                + reason
                                + "\",\"code\":"
                                + code
                                + ",\"message\":\""
                                + message.replace("\"", "\\\"")
                                + "\"}");
    }
}
