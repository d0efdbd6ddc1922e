package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.payload.Payload;
import io.upshift.releases.payload.PayloadLoader;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * The cluster-version controller's Deployment as a release carries it: {@code
 * deploy/deployment.yaml} (what an install creates, shipped on the classpath from that file),
 * running the release image ({@code {{.ReleaseImage}}}) with {@code --release} naming it, and opted
 * in to the cluster profile as upstream's operator Deployment is. The payload's copy replaces the
 * installed one at run-level 0 through the Deployment merge, which takes the manifest's args, env
 * and volumes whole: so everything the pod needs is in it, and the update never loses what the
 * install set up (its node name, its payload directory, its probes).
 */
public final class ControllerDeployment {

    /**
     * The payload file it goes in: run-level 0, after the namespace and CRDs, as upstream's
     * operator Deployment.
     */
    public static final String FILE = "0000_00_cluster-version-operator_03_deployment.yaml";

    public static final String NAMESPACE = "openshift-cluster-version";
    public static final String NAME = "cluster-version-operator";

    /** The container running the controller. */
    public static final String CONTAINER = "controller";

    /** Where a payload names the release image it is part of. */
    public static final String RELEASE_IMAGE = "{{.ReleaseImage}}";

    private static final String RESOURCE = "/deploy/deployment.yaml";

    private ControllerDeployment() {}

    /**
     * deploy/'s Deployment, as installed (the image its kustomization sets, no {@code --release}).
     */
    public static ObjectNode installed() {
        try (InputStream in = ControllerDeployment.class.getResourceAsStream(RESOURCE)) {
            if (in == null)
                throw new IllegalStateException(
                        RESOURCE
                                + " is not on the classpath: the release module's build copies it"
                                + " from deploy/");
            return (ObjectNode) Mappers.YAML.readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE + ": " + e.getMessage(), e);
        }
    }

    /**
     * The Deployment a release carries: deploy/'s, running {@value #RELEASE_IMAGE} with {@code
     * --release} naming it.
     */
    public static ObjectNode released() {
        ObjectNode d = installed();
        ((ObjectNode) d.path("metadata"))
                .withObjectProperty("annotations")
                .put("include.release.openshift.io/self-managed-high-availability", "true");
        ObjectNode container = container(d);
        container.put("image", RELEASE_IMAGE);
        ArrayNode args = container.withArrayProperty("args");
        args.add("--release").add(RELEASE_IMAGE);
        return d;
    }

    /** {@link #released()} as a manifest file's text. */
    public static String manifest() {
        return yaml(released());
    }

    static String yaml(JsonNode d) {
        try {
            return Mappers.YAML.writeValueAsString(d);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Its controller container. */
    public static ObjectNode container(JsonNode deployment) {
        for (JsonNode c :
                deployment.path("spec").path("template").path("spec").path("containers")) {
            if (CONTAINER.equals(c.path("name").asText())) return (ObjectNode) c;
        }
        throw new IllegalStateException(
                "deploy/deployment.yaml has no container named " + CONTAINER);
    }

    /** The names of Upshift's controller Deployment before it took upstream's. */
    public static final String LEGACY_NAMESPACE = "upshift";

    public static final String LEGACY_NAME = "upshift-controller";

    /**
     * Why {@code m}, from a payload whose release image is {@code releaseImage}, is a
     * cluster-version operator's Deployment, or null when it is none: a Deployment named as
     * upstream's ({@value #NAME}) or as Upshift's was ({@value #LEGACY_NAME}), in any namespace, or
     * one running the release image with the operator's command (Upshift's {@code operator},
     * upstream's {@code start}). A manifest that deletes its object runs nothing.
     */
    static String operatorBy(Manifest m, String releaseImage) {
        if (!isDeployment(m)) return null;
        if (NAME.equals(m.name()) || LEGACY_NAME.equals(m.name()))
            return "it is named as a cluster-version operator";
        return command(m, releaseImage)
                .map(
                        command ->
                                command.equals("operator")
                                        ? "it runs the release image's cluster-version controller"
                                                + " (upshift operator)"
                                        : "it runs the release image's cluster-version operator"
                                                + " (start)")
                .orElse(null);
    }

    /** The operator's command the Deployment runs the release image with: operator or start. */
    private static Optional<String> command(Manifest m, String releaseImage) {
        JsonNode spec = m.object().path("spec").path("template").path("spec");
        return Stream.concat(stream(spec.path("containers")), stream(spec.path("initContainers")))
                .filter(c -> releaseImage.equals(c.path("image").asText()))
                .map(c -> c.path("args").path(0).asText(""))
                .filter(command -> command.equals("operator") || command.equals("start"))
                .findFirst();
    }

    /**
     * True when {@code m} is the one place a release's operator runs: {@value #NAMESPACE}/{@value
     * #NAME}.
     */
    static boolean isTheOperator(Manifest m) {
        return isDeployment(m) && NAMESPACE.equals(m.namespace()) && NAME.equals(m.name());
    }

    /** A Deployment the payload makes (a manifest that deletes its object runs nothing). */
    private static boolean isDeployment(Manifest m) {
        return "apps".equals(m.group())
                && "Deployment".equals(m.kind())
                && !"true".equals(m.annotations().get(Manifest.DELETE));
    }

    /**
     * Every cluster-version operator {@code manifests} would run besides {@value
     * #NAMESPACE}/{@value #NAME}, each named with its file and why: two operators would both write
     * ClusterVersion, so a release carrying any is refused. Empty when there is none.
     */
    public static List<String> others(List<Manifest> manifests, String releaseImage) {
        List<String> found = new ArrayList<>();
        for (Manifest m : manifests) {
            String why = operatorBy(m, releaseImage);
            if (why == null || isTheOperator(m)) continue;
            found.add(
                    PayloadLoader.OPERATOR_DIR
                            + "/"
                            + m.file()
                            + " (line "
                            + m.line()
                            + "): the Deployment "
                            + m.namespace()
                            + "/"
                            + m.name()
                            + " would be a second cluster-version operator ("
                            + why
                            + "): two operators would write ClusterVersion. A release runs one, the"
                            + " Deployment "
                            + NAMESPACE
                            + "/"
                            + NAME
                            + "; remove this one from the payload");
        }
        return found;
    }

    /** The payload's {@value #NAMESPACE}/{@value #NAME}, if it has one. */
    static Optional<Manifest> theOperator(Payload payload) {
        return payload.documents().stream().filter(ControllerDeployment::isTheOperator).findFirst();
    }

    /** True when {@code operator} runs upstream's cluster-version operator ({@code start}). */
    static boolean runsUpstreams(Manifest operator, String releaseImage) {
        return command(operator, releaseImage).filter("start"::equals).isPresent();
    }

    private static Stream<JsonNode> stream(JsonNode list) {
        return StreamSupport.stream(list.spliterator(), false);
    }
}
