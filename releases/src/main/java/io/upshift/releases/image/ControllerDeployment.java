package io.upshift.releases.image;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.upshift.api.json.Mappers;
import io.upshift.releases.manifest.Manifest;
import io.upshift.releases.payload.Payload;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
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

    public static final String NAMESPACE = "upshift";
    public static final String NAME = "upshift-controller";

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

    /**
     * True when {@code payload}, loaded with {@code releaseImage} filled in, already carries a
     * controller: a Deployment running the release image itself (as upstream's operator Deployment
     * does), or one named as Upshift's.
     */
    static boolean carriedBy(Payload payload, String releaseImage) {
        return payload.documents().stream()
                .filter(m -> "apps".equals(m.group()) && "Deployment".equals(m.kind()))
                .anyMatch(
                        m ->
                                (NAMESPACE.equals(m.namespace()) && NAME.equals(m.name()))
                                        || runs(m, releaseImage));
    }

    private static boolean runs(Manifest m, String image) {
        JsonNode spec = m.object().path("spec").path("template").path("spec");
        return Stream.concat(stream(spec.path("containers")), stream(spec.path("initContainers")))
                .anyMatch(c -> image.equals(c.path("image").asText()));
    }

    private static Stream<JsonNode> stream(JsonNode list) {
        return StreamSupport.stream(list.spliterator(), false);
    }
}
