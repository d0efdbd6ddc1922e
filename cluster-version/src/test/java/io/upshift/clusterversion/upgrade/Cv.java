package io.upshift.clusterversion.upgrade;

import io.fabric8.kubernetes.api.model.ConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusConditionBuilder;
import io.fabric8.openshift.api.model.config.v1.ClusterVersion;
import io.fabric8.openshift.api.model.config.v1.ClusterVersionBuilder;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdateBuilder;
import io.fabric8.openshift.api.model.config.v1.ReleaseBuilder;
import io.fabric8.openshift.api.model.config.v1.Update;
import io.fabric8.openshift.api.model.config.v1.UpdateHistoryBuilder;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/** ClusterVersions for the update-command tests, built a field at a time. */
final class Cv {
    static final String REPO = "quay.example/ocp/release";

    private final ClusterVersion cv =
            new ClusterVersionBuilder()
                    .withNewMetadata()
                    .withName("version")
                    .endMetadata()
                    .withNewSpec()
                    .withClusterID("5d7a5a1e-1f0c-4b7e-9d55-2f1e8c3a9b10")
                    .endSpec()
                    .withNewStatus()
                    .endStatus()
                    .build();

    /** A by-digest pull spec whose digest is {@code c} 64 times. */
    static String image(char c) {
        return REPO + "@sha256:" + String.valueOf(c).repeat(64);
    }

    /** Running (status.desired) {@code version} from {@code image}. */
    static Cv at(String version, String image) {
        Cv c = new Cv();
        c.cv.getStatus()
                .setDesired(new ReleaseBuilder().withVersion(version).withImage(image).build());
        return c;
    }

    Cv condition(String type, String status, String reason, String message) {
        cv.getStatus()
                .getConditions()
                .add(
                        new ClusterOperatorStatusConditionBuilder()
                                .withType(type)
                                .withStatus(status)
                                .withReason(reason)
                                .withMessage(message)
                                .withLastTransitionTime("2025-03-01T10:00:00Z")
                                .build());
        return this;
    }

    /** spec.channel, and the channels the current release lists. */
    Cv channel(String channel, String... listed) {
        cv.getSpec().setChannel(channel);
        cv.getStatus().getDesired().setChannels(Arrays.asList(listed));
        return this;
    }

    Cv upstream(String url) {
        cv.getSpec().setUpstream(url);
        return this;
    }

    Cv available(String version, String image) {
        cv.getStatus()
                .getAvailableUpdates()
                .add(new ReleaseBuilder().withVersion(version).withImage(image).build());
        return this;
    }

    /** A conditional update with its Recommended condition. */
    Cv conditional(
            String version, String image, String recommended, String reason, String message) {
        cv.getStatus()
                .getConditionalUpdates()
                .add(
                        new ConditionalUpdateBuilder()
                                .withRelease(
                                        new ReleaseBuilder()
                                                .withVersion(version)
                                                .withImage(image)
                                                .build())
                                .withConditions(
                                        new ConditionBuilder()
                                                .withType("Recommended")
                                                .withStatus(recommended)
                                                .withReason(reason)
                                                .withMessage(message)
                                                .withLastTransitionTime("2025-03-01T10:00:00Z")
                                                .build())
                                .build());
        return this;
    }

    /** A history entry; add the newest first, as status.history lists them. */
    Cv history(String state, String version, String image) {
        cv.getStatus()
                .getHistory()
                .add(
                        new UpdateHistoryBuilder()
                                .withState(state)
                                .withVersion(version)
                                .withImage(image)
                                .withStartedTime("2025-03-01T09:00:00Z")
                                .withVerified(true)
                                .build());
        return this;
    }

    /** spec.desiredUpdate; {@code acceptRisks} null leaves the list out. */
    Cv desiredUpdate(String version, String image, List<String> acceptRisks) {
        Update u = new Update();
        u.setVersion(version);
        u.setImage(image);
        if (acceptRisks != null)
            u.setAdditionalProperty(
                    "acceptRisks", acceptRisks.stream().map(n -> Map.of("name", n)).toList());
        cv.getSpec().setDesiredUpdate(u);
        return this;
    }

    Cv architecture(String architecture) {
        cv.getSpec().getDesiredUpdate().setArchitecture(architecture);
        return this;
    }

    ClusterVersion get() {
        return cv;
    }
}
