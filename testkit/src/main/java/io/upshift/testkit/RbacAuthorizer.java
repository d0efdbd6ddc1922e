package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * The embedded API server's authorizer, as kube-apiserver's with {@code --authorization-mode=RBAC}:
 * members of {@code system:masters} may do anything (the privileged-group authorizer that comes
 * first); anyone else may do what a rule of a role bound to them allows, from the ClusterRoles,
 * ClusterRoleBindings, Roles and RoleBindings the server stores now (k8s.io/kubernetes {@code
 * plugin/pkg/auth/authorizer/rbac}):
 *
 * <ul>
 *   <li>a ClusterRoleBinding grants its ClusterRole's rules everywhere; a RoleBinding grants its
 *       Role's, or a ClusterRole's, rules in its own namespace only;
 *   <li>a binding applies to a subject of kind User by name, Group by any of the user's groups,
 *       ServiceAccount by {@code system:serviceaccount:<namespace>:<name>} (its namespace
 *       defaulting to the binding's);
 *   <li>a rule matches a verb, API group, resource (a subresource as {@code resource/subresource},
 *       or {@code * /sub}), and, when it lists resourceNames, the object's name (so that a list or
 *       create, which names none, is not allowed by it); a non-resource rule matches a URL exactly
 *       or by a trailing {@code *}; {@code *} matches anything;
 *   <li>a binding whose role does not exist grants nothing, and the refusal says so ({@code RBAC:
 *       clusterrole... not found}), as upstream's.
 * </ul>
 *
 * The rules are compiled once per change of an RBAC object ({@link #changed()}), and per user on
 * first use, so that deciding is a few set lookups. Not done, as not needed here:
 * privilege-escalation checks on writes of roles and bindings (the {@code escalate} and {@code
 * bind} verbs are never asked; anyone allowed to write a role may write any rules into it),
 * aggregated ClusterRoles ({@code aggregationRule} selectors are not followed), and impersonation.
 */
final class RbacAuthorizer {
    static final String RBAC = "/apis/rbac.authorization.k8s.io/v1/";

    /** The decision, and why not: upstream's reason, empty unless a binding's role is missing. */
    record Decision(boolean allowed, String reason) {
        static final Decision ALLOWED = new Decision(true, "");
    }

    private record Rule(
            Set<String> verbs,
            Set<String> groups,
            Set<String> resources,
            Set<String> names,
            Set<String> urls) {
        boolean matches(RequestAttributes a) {
            if (!any(verbs, a.verb())) return false;
            if (!a.resourceRequest())
                return urls.stream()
                        .anyMatch(
                                u ->
                                        u.equals("*")
                                                || u.equals(a.path())
                                                || (u.endsWith("*")
                                                        && a.path()
                                                                .startsWith(
                                                                        u.substring(
                                                                                0,
                                                                                u.length() - 1))));
            return any(groups, a.group())
                    && resource(a)
                    && (names.isEmpty() || names.contains(a.name()));
        }

        private boolean resource(RequestAttributes a) {
            String wanted = a.resourceAndSubresource();
            for (String r : resources) {
                if (r.equals("*") || r.equals(wanted)) return true;
                if (!a.subresource().isEmpty() && r.equals("*/" + a.subresource())) return true;
            }
            return false;
        }

        private static boolean any(Set<String> allowed, String value) {
            return allowed.contains("*") || allowed.contains(value);
        }
    }

    private record Subject(String kind, String name, String namespace) {
        boolean appliesTo(User user, String bindingNamespace) {
            return switch (kind) {
                case "User" -> user.name().equals(name);
                case "Group" -> user.in(name);
                case "ServiceAccount" -> {
                    String ns = namespace.isEmpty() ? bindingNamespace : namespace;
                    yield !ns.isEmpty()
                            && user.name().equals("system:serviceaccount:" + ns + ":" + name);
                }
                default -> false;
            };
        }
    }

    /** A binding with its role's rules, or the error that its role is missing. */
    private record Binding(
            String namespace, List<Subject> subjects, List<Rule> rules, String error) {
        boolean appliesTo(User user) {
            for (Subject s : subjects) if (s.appliesTo(user, namespace)) return true;
            return false;
        }
    }

    /**
     * The rules bound to one user: everywhere, and per namespace; with the errors of its bindings.
     */
    private record Grants(
            List<Rule> cluster,
            List<String> clusterErrors,
            Map<String, List<Rule>> namespaced,
            Map<String, List<String>> namespaceErrors) {}

    /**
     * All bindings as the server stores them now, and each user's grants from them, computed on
     * first use.
     */
    private record Snapshot(
            List<Binding> cluster, Map<String, List<Binding>> namespaced, Map<User, Grants> users) {
        Grants grants(User user) {
            return users.computeIfAbsent(
                    user,
                    u -> {
                        List<Rule> rules = new ArrayList<>();
                        List<String> errors = new ArrayList<>();
                        for (Binding b : cluster) collect(b, u, rules, errors);
                        Map<String, List<Rule>> byNamespace = new HashMap<>();
                        Map<String, List<String>> errorsByNamespace = new HashMap<>();
                        namespaced.forEach(
                                (ns, bindings) -> {
                                    List<Rule> r = new ArrayList<>();
                                    List<String> e = new ArrayList<>();
                                    for (Binding b : bindings) collect(b, u, r, e);
                                    if (!r.isEmpty()) byNamespace.put(ns, r);
                                    if (!e.isEmpty()) errorsByNamespace.put(ns, e);
                                });
                        return new Grants(rules, errors, byNamespace, errorsByNamespace);
                    });
        }

        private static void collect(Binding b, User u, List<Rule> rules, List<String> errors) {
            if (!b.appliesTo(u)) return;
            rules.addAll(b.rules());
            if (b.error() != null) errors.add(b.error());
        }
    }

    private final Function<String, List<JsonNode>> stored;
    private final Object rebuild = new Object();
    private volatile boolean dirty = true;
    private volatile Snapshot snapshot;

    /**
     * @param stored the objects the server stores now at a collection's path (a list's items)
     */
    RbacAuthorizer(Function<String, List<JsonNode>> stored) {
        this.stored = stored;
    }

    /** An RBAC object was written: rules are compiled again before the next decision. */
    void changed() {
        dirty = true;
    }

    Decision authorize(User user, RequestAttributes a) {
        if (user.in(User.MASTERS)) return Decision.ALLOWED;
        Grants g = snapshot().grants(user);
        for (Rule r : g.cluster()) if (r.matches(a)) return Decision.ALLOWED;
        List<String> errors = new ArrayList<>(g.clusterErrors());
        if (a.resourceRequest() && !a.namespace().isEmpty()) {
            for (Rule r : g.namespaced().getOrDefault(a.namespace(), List.of()))
                if (r.matches(a)) return Decision.ALLOWED;
            errors.addAll(g.namespaceErrors().getOrDefault(a.namespace(), List.of()));
        }
        // upstream aggregates its visitor's errors: one alone as it is, more as [a, b]
        String reason =
                errors.isEmpty()
                        ? ""
                        : "RBAC: "
                                + (errors.size() == 1
                                        ? errors.get(0)
                                        : "[" + String.join(", ", errors) + "]");
        return new Decision(false, reason);
    }

    /**
     * kube-apiserver's words for a refusal ({@code responsewriters.Forbidden} wrapped in {@code
     * NewForbidden}): {@code <resource>.<group> "<name>" is forbidden: User "<user>" cannot <verb>
     * resource "<resource>[/<sub>]" in API group "<group>" in the namespace "<ns>"} (or {@code at
     * the cluster scope}); without a name, {@code <resource>.<group> is forbidden: ...}; for a
     * non-resource URL, {@code forbidden: User "<user>" cannot <verb> path "<path>"}; the
     * authorizer's reason, if any, after a colon.
     */
    static String forbiddenMessage(User user, RequestAttributes a, String reason) {
        String why;
        if (!a.resourceRequest()) {
            why = "User " + quote(user.name()) + " cannot " + a.verb() + " path " + quote(a.path());
        } else {
            why =
                    "User "
                            + quote(user.name())
                            + " cannot "
                            + a.verb()
                            + " resource "
                            + quote(a.resourceAndSubresource())
                            + " in API group "
                            + quote(a.group())
                            + (a.namespace().isEmpty()
                                    ? " at the cluster scope"
                                    : " in the namespace " + quote(a.namespace()));
        }
        if (!reason.isEmpty()) why += ": " + reason;
        if (!a.resourceRequest() || a.resource().isEmpty()) return "forbidden: " + why;
        String qualified = a.group().isEmpty() ? a.resource() : a.resource() + "." + a.group();
        return a.name().isEmpty()
                ? qualified + " is forbidden: " + why
                : qualified + " " + quote(a.name()) + " is forbidden: " + why;
    }

    private static String quote(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private Snapshot snapshot() {
        Snapshot s = snapshot;
        if (!dirty && s != null) return s;
        synchronized (rebuild) {
            if (dirty || snapshot == null) {
                dirty = false; // a write while compiling marks it again
                snapshot = compile();
            }
            return snapshot;
        }
    }

    private Snapshot compile() {
        Map<String, List<Rule>> clusterRoles = new HashMap<>();
        for (JsonNode role : stored.apply(RBAC + "clusterroles"))
            clusterRoles.put(role.path("metadata").path("name").asText(), rules(role));
        Map<String, List<Rule>> roles = new HashMap<>();
        for (JsonNode role : stored.apply(RBAC + "roles")) {
            roles.put(
                    role.path("metadata").path("namespace").asText()
                            + "/"
                            + role.path("metadata").path("name").asText(),
                    rules(role));
        }
        List<Binding> cluster = new ArrayList<>();
        for (JsonNode b : stored.apply(RBAC + "clusterrolebindings")) {
            String role = b.path("roleRef").path("name").asText();
            List<Rule> rules =
                    "ClusterRole".equals(b.path("roleRef").path("kind").asText())
                            ? clusterRoles.get(role)
                            : null;
            cluster.add(
                    new Binding(
                            "",
                            subjects(b),
                            rules == null ? List.of() : rules,
                            rules == null
                                    ? "clusterrole.rbac.authorization.k8s.io "
                                            + quote(role)
                                            + " not found"
                                    : null));
        }
        Map<String, List<Binding>> namespaced = new HashMap<>();
        for (JsonNode b : stored.apply(RBAC + "rolebindings")) {
            String ns = b.path("metadata").path("namespace").asText();
            String role = b.path("roleRef").path("name").asText();
            boolean clusterRole = "ClusterRole".equals(b.path("roleRef").path("kind").asText());
            List<Rule> rules = clusterRole ? clusterRoles.get(role) : roles.get(ns + "/" + role);
            String error =
                    rules != null
                            ? null
                            : (clusterRole ? "clusterrole" : "role")
                                    + ".rbac.authorization.k8s.io "
                                    + quote(role)
                                    + " not found";
            namespaced
                    .computeIfAbsent(ns, k -> new ArrayList<>())
                    .add(new Binding(ns, subjects(b), rules == null ? List.of() : rules, error));
        }
        return new Snapshot(cluster, namespaced, new ConcurrentHashMap<>());
    }

    private static List<Rule> rules(JsonNode role) {
        List<Rule> out = new ArrayList<>();
        for (JsonNode r : role.path("rules")) {
            out.add(
                    new Rule(
                            strings(r.path("verbs")),
                            strings(r.path("apiGroups")),
                            strings(r.path("resources")),
                            strings(r.path("resourceNames")),
                            strings(r.path("nonResourceURLs"))));
        }
        return out;
    }

    private static List<Subject> subjects(JsonNode binding) {
        List<Subject> out = new ArrayList<>();
        for (JsonNode s : binding.path("subjects")) {
            out.add(
                    new Subject(
                            s.path("kind").asText(),
                            s.path("name").asText(),
                            s.path("namespace").asText()));
        }
        return out;
    }

    private static Set<String> strings(JsonNode array) {
        Set<String> out = new HashSet<>();
        array.forEach(v -> out.add(v.asText()));
        return Set.copyOf(out);
    }
}
