package io.upshift.testkit;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Set;

/**
 * What an API request asks, in the terms authorization decides on, read from its method and URL as
 * kube-apiserver's request-info resolver reads them (k8s.io/apiserver {@code RequestInfoFactory}):
 *
 * <ul>
 *   <li>a resource request ({@code /api/v1/...}, {@code /apis/<group>/<version>/...}) has a verb
 *       from its method (GET/HEAD get, or list/watch without a name; POST create; PUT update; PATCH
 *       patch; DELETE delete, or deletecollection without a name), an API group ({@code ""} for the
 *       core group), a resource, a subresource, a namespace and a name; {@code ?watch=true} or a
 *       {@code /watch/} path makes it a watch, and a field selector {@code metadata.name=N} names
 *       the object of a list or watch;
 *   <li>any other path (discovery, {@code /version}, {@code /healthz}, {@code /metrics}) is a
 *       non-resource request, its verb the method in lower case.
 * </ul>
 *
 * A namespace's own path carries its name as namespace too ({@code /api/v1/namespaces/x} is
 * namespace {@code x}), as upstream resolves it, so that a RoleBinding in {@code x} can grant
 * reading it.
 */
record RequestAttributes(
        boolean resourceRequest,
        String verb,
        String group,
        String resource,
        String subresource,
        String namespace,
        String name,
        String path) {
    private static final Set<String> NAMESPACE_SUBRESOURCES = Set.of("status", "finalize");

    /** The resource with its subresource, as rules name it ({@code pods/eviction}). */
    String resourceAndSubresource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    static RequestAttributes of(String method, String pathAndQuery) {
        int q = pathAndQuery.indexOf('?');
        String path = q < 0 ? pathAndQuery : pathAndQuery.substring(0, q);
        String query = q < 0 ? "" : pathAndQuery.substring(q + 1);
        String trimmed = path.replaceAll("^/+|/+$", "");
        String[] parts = trimmed.isEmpty() ? new String[0] : trimmed.split("/");
        int rest;
        String group;
        if (parts.length >= 3 && parts[0].equals("api")) {
            group = "";
            rest = 2;
        } else if (parts.length >= 4 && parts[0].equals("apis")) {
            group = parts[1];
            rest = 3;
        } else {
            return nonResource(method, path);
        }
        String verb =
                switch (method) {
                    case "GET", "HEAD" -> "get";
                    case "POST" -> "create";
                    case "PUT" -> "update";
                    case "PATCH" -> "patch";
                    case "DELETE" -> "delete";
                    default -> "";
                };
        // deprecated /watch/ and /proxy/ paths: their verb is the path's
        if (parts.length - rest >= 2
                && (parts[rest].equals("watch") || parts[rest].equals("proxy"))) {
            verb = parts[rest];
            rest++;
        }
        String namespace = "";
        if (parts[rest].equals("namespaces") && parts.length - rest >= 2) {
            namespace = parts[rest + 1];
            if (parts.length - rest > 2 && !NAMESPACE_SUBRESOURCES.contains(parts[rest + 2]))
                rest += 2;
        }
        int left = parts.length - rest;
        String resource = parts[rest];
        String name = left >= 2 ? parts[rest + 1] : "";
        String subresource = left >= 3 && !verb.equals("proxy") ? parts[rest + 2] : "";
        if (name.isEmpty() && verb.equals("get")) {
            verb = watch(query) ? "watch" : "list";
        }
        if (name.isEmpty() && (verb.equals("list") || verb.equals("watch")))
            name = selectedName(query);
        if (name.isEmpty() && verb.equals("delete")) verb = "deletecollection";
        return new RequestAttributes(
                true, verb, group, resource, subresource, namespace, name, path);
    }

    private static RequestAttributes nonResource(String method, String path) {
        return new RequestAttributes(
                false,
                method.toLowerCase(Locale.ROOT),
                "",
                "",
                "",
                "",
                "",
                path.isEmpty() ? "/" : path);
    }

    private static boolean watch(String query) {
        for (String p : query.split("&")) {
            String[] kv = p.split("=", 2);
            if (kv[0].equals("watch")
                    && kv.length == 2
                    && (kv[1].equals("true") || kv[1].equals("1"))) return true;
        }
        return false;
    }

    /**
     * The name a field selector requires exactly ({@code metadata.name=N} or {@code ==}), or empty.
     */
    private static String selectedName(String query) {
        for (String p : query.split("&")) {
            String[] kv = p.split("=", 2);
            if (!kv[0].equals("fieldSelector") || kv.length < 2) continue;
            for (String term : URLDecoder.decode(kv[1], StandardCharsets.UTF_8).split(",")) {
                String t = term.trim();
                if (t.startsWith("metadata.name==")) return t.substring("metadata.name==".length());
                if (t.startsWith("metadata.name=")) return t.substring("metadata.name=".length());
            }
        }
        return "";
    }
}
