package io.upshift.graph.updates;

import io.upshift.base.version.SemVer;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the cluster asks the graph service: {@code <upstream>?arch=&channel=&id=&version=}. {@link
 * #problem} says, with the reference's RetrievedUpdates reason, why no request can be made.
 *
 * @param arch the architecture asked for: the one the cluster is to run ({@code multi} once {@code
 *     spec.desiredUpdate.architecture} asks for Multi)
 * @param currentArch the architecture the cluster runs: when it is not {@code multi} and {@code
 *     arch} is, the cluster moves to the multi-architecture release of its own version, the only
 *     update the answer offers then ({@link #migratingToMulti})
 */
public record UpdatesRequest(
        String upstream,
        String channel,
        String arch,
        String clusterId,
        String version,
        String currentArch) {

    /** A request for the architecture the cluster runs. */
    public UpdatesRequest(
            String upstream, String channel, String arch, String clusterId, String version) {
        this(upstream, channel, arch, clusterId, version, arch);
    }

    /**
     * The update service upstream's operator asks when {@code spec.upstream} is unset
     * (pkg/cvo/availableupdates.go).
     */
    public static final String DEFAULT_UPSTREAM =
            "https://api.openshift.com/api/upgrades_info/v1/graph";

    private static final Pattern UUID =
            Pattern.compile(
                    "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}");

    /**
     * The architecture the cluster runs, as the graph names it (upstream's {@code
     * getCurrentArchitecture}): {@code multi} when it runs a multi-architecture release
     * (status.desired.architecture {@code Multi}), else the controller's own ({@code runtime},
     * GOARCH names).
     */
    public static String architecture(String desiredArchitecture, String runtime) {
        return "Multi".equalsIgnoreCase(desiredArchitecture) ? "multi" : runtime;
    }

    /**
     * The architecture the graph is asked for (upstream's {@code getDesiredArchitecture}): {@code
     * multi} when {@code spec.desiredUpdate.architecture} asks for Multi, else the one the cluster
     * runs ({@code current}).
     */
    public static String desiredArchitecture(String specArchitecture, String current) {
        return "Multi".equalsIgnoreCase(specArchitecture) ? "multi" : current;
    }

    /**
     * True while a cluster of one architecture asks for the multi-architecture release: the only
     * update then is its own version's multi-architecture release.
     */
    public boolean migratingToMulti() {
        return "multi".equals(arch) && !"multi".equals(currentArch);
    }

    /**
     * The update service to ask: {@code spec.upstream}, else the controller's default ({@link
     * #DEFAULT_UPSTREAM} unless configured otherwise; empty when it has none).
     */
    public static String upstream(String specUpstream, String defaultUpstream) {
        if (specUpstream != null && !specUpstream.isEmpty()) return specUpstream;
        return defaultUpstream == null ? "" : defaultUpstream;
    }

    /** A RetrievedUpdates=False condition: reason and message. */
    public record Problem(String reason, String message) {}

    public Optional<Problem> problem() {
        if (upstream == null || upstream.isEmpty())
            return Optional.of(
                    new Problem(
                            "NoUpstream",
                            "No updateService server has been set to retrieve updates."));
        try {
            URI u = new URI(upstream);
            if (u.getScheme() == null || u.getHost() == null)
                throw new URISyntaxException(upstream, "not an absolute http(s) URL");
        } catch (URISyntaxException e) {
            return Optional.of(
                    new Problem(
                            "InvalidURI", "failed to parse update service URL: " + e.getMessage()));
        }
        if (clusterId == null || !UUID.matcher(clusterId).matches()) {
            return Optional.of(
                    new Problem(
                            "InvalidID",
                            "invalid cluster ID: \"" + clusterId + "\" is not a UUID"));
        }
        if (arch == null || arch.isEmpty())
            return Optional.of(
                    new Problem("NoArchitecture", "Architecture has not been configured."));
        if (version == null || version.isEmpty()) {
            return Optional.of(
                    new Problem(
                            "NoCurrentVersion",
                            "The cluster version does not have a semantic version assigned and"
                                    + " cannot calculate valid upgrades."));
        }
        if (channel == null || channel.isEmpty())
            return Optional.of(
                    new Problem("NoChannel", "The update channel has not been configured."));
        if (!SemVer.isValid(version)) {
            return Optional.of(
                    new Problem(
                            "InvalidCurrentVersion",
                            "The current cluster version is not a valid semantic version and cannot"
                                    + " be used to calculate upgrades."));
        }
        return Optional.empty();
    }

    /** The request URL. */
    public URI uri() {
        String sep = upstream.contains("?") ? "&" : "?";
        return URI.create(
                upstream
                        + sep
                        + "arch="
                        + enc(arch)
                        + "&channel="
                        + enc(channel)
                        + "&id="
                        + enc(clusterId)
                        + "&version="
                        + enc(version));
    }

    private static String enc(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8);
    }
}
