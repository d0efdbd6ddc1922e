package io.upshift.clusterversion.model;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Condition;
import io.fabric8.openshift.api.model.config.v1.ClusterOperatorStatusCondition;
import io.fabric8.openshift.api.model.config.v1.ConditionalUpdate;
import io.fabric8.openshift.api.model.config.v1.Release;
import io.fabric8.openshift.api.model.config.v1.UpdateHistory;
import io.upshift.base.version.SemVer;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * The preconditions and their summary say what upstream's say, word for word: the expected strings
 * are the formats of pkg/payload/precondition (rollback.go, gianthop.go, recommendedupdate.go,
 * precondition.go Summarize) and the cases of their tests, filled with this test's own versions.
 */
class PreconditionWordsTest {

    static UpdateHistory entry(String version, String image) {
        UpdateHistory e = new UpdateHistory();
        e.setVersion(version);
        e.setImage(image);
        e.setState("Completed");
        return e;
    }

    static Preconditions.Input input(
            String current,
            String currentImage,
            String target,
            List<UpdateHistory> history,
            List<Release> available,
            List<ConditionalUpdate> conditional,
            String channel,
            ClusterOperatorStatusCondition retrieved) {
        return new Preconditions.Input(
                SemVer.parse(current),
                currentImage,
                SemVer.parse(target),
                history,
                null,
                available,
                conditional,
                channel,
                retrieved,
                false,
                null);
    }

    /** The precondition {@code name}'s message for {@code in}, or empty when it passes. */
    static Optional<String> message(String name, Preconditions.Input in) {
        return Preconditions.check(in).stream()
                .filter(p -> p.name().equals(name))
                .map(Precondition::message)
                .findFirst();
    }

    static Optional<String> rollback(
            String current, String image, String target, UpdateHistory... history) {
        Release r = new Release();
        r.setVersion(target);
        return message(
                Precondition.ROLLBACK,
                input(current, image, target, List.of(history), List.of(r), List.of(), "c", null));
    }

    @Test
    void rollback() {
        assertThat(rollback("2.3.1", "reg/r:2.3.1", "2.3.2")).isEmpty();
        assertThat(rollback("2.3.1", "reg/r:2.3.1", "2.3.0"))
                .contains(
                        "2.3.0 is less than the current target 2.3.1, and the cluster has no"
                                + " previous Semantic Version");
        assertThat(
                        rollback(
                                "2.3.1",
                                "reg/r:2.3.1",
                                "2.3.0",
                                entry("2.3.1", "reg/r:2.3.1"),
                                entry("2.3.0", "reg/r:2.3.0")))
                .isEmpty();
        // the previous version is the newest entry of another version or image
        assertThat(
                        rollback(
                                "2.3.4",
                                "reg/r:2.3.4",
                                "2.3.2",
                                entry("2.3.4", "reg/r:2.3.4"),
                                entry("2.3.3", "reg/r:2.3.3"),
                                entry("2.3.2", "reg/r:2.3.2")))
                .contains(
                        "2.3.2 is less than the current target 2.3.4, and the only supported"
                                + " rollback is to the cluster's previous version 2.3.3"
                                + " (reg/r:2.3.3)");
        assertThat(
                        rollback(
                                "2.3.4",
                                "reg/r:multi",
                                "2.3.2",
                                entry("2.3.4", "reg/r:multi"),
                                entry("2.3.4", "reg/r:single"),
                                entry("2.3.2", "reg/r:2.3.2")))
                .contains(
                        "2.3.2 is less than the current target 2.3.4, and the only supported"
                                + " rollback is to the cluster's previous version 2.3.4"
                                + " (reg/r:single)");
        assertThat(
                        rollback(
                                "3.0.0",
                                "reg/r:3.0.0",
                                "2.9.0",
                                entry("3.0.0", "reg/r:3.0.0"),
                                entry("2.9.0", "reg/r:2.9.0")))
                .contains(
                        "2.9.0 is less than the current target 3.0.0 and matches the cluster's"
                                + " previous version, but rollbacks that change major or minor"
                                + " versions are not recommended");
        // a previous entry that is not a Semantic Version is no previous version
        assertThat(
                        rollback(
                                "2.3.1",
                                "reg/r:2.3.1",
                                "2.3.0",
                                entry("2.3.1", "reg/r:2.3.1"),
                                entry("not-a-version", "reg/r:x")))
                .contains(
                        "2.3.0 is less than the current target 2.3.1, and the cluster has no"
                                + " previous Semantic Version");
    }

    @Test
    void giantHop() {
        Release any = new Release();
        assertThat(
                        message(
                                Precondition.GIANT_HOP,
                                input(
                                        "2.3.1",
                                        "i",
                                        "3.0.0",
                                        List.of(),
                                        List.of(any),
                                        List.of(),
                                        "c",
                                        null)))
                .contains(
                        "3.0.0 has a larger major version than the current target 2.3.1 (3 > 2),"
                                + " and only updates within the current major version are"
                                + " supported.");
        assertThat(
                        message(
                                Precondition.GIANT_HOP,
                                input(
                                        "2.3.1", "i", "2.5.0", List.of(), List.of(), List.of(), "c",
                                        null)))
                .contains(
                        "2.5.0 is more than one minor version beyond the current target 2.3.1"
                                + " (2.5 > 2.(3+1)), and only updates within the current minor"
                                + " version or to the next minor version are supported.");
        assertThat(
                        message(
                                Precondition.GIANT_HOP,
                                input(
                                        "2.3.1", "i", "2.4.0", List.of(), List.of(), List.of(), "c",
                                        null)))
                .isEmpty();
    }

    static ConditionalUpdate conditional(String version, Condition... conditions) {
        ConditionalUpdate u = new ConditionalUpdate();
        Release r = new Release();
        r.setVersion(version);
        u.setRelease(r);
        u.setConditions(List.of(conditions));
        return u;
    }

    static Condition condition(String type, String status, String reason, String message) {
        Condition c = new Condition();
        c.setType(type);
        c.setStatus(status);
        c.setReason(reason);
        c.setMessage(message);
        return c;
    }

    static Optional<Precondition> recommended(
            List<ConditionalUpdate> conditional,
            String channel,
            ClusterOperatorStatusCondition retrieved) {
        return Preconditions.check(
                        input(
                                "7.1.0",
                                "i",
                                "7.1.4",
                                List.of(),
                                List.of(),
                                conditional,
                                channel,
                                retrieved))
                .stream()
                .filter(p -> p.name().equals(Precondition.RECOMMENDED))
                .findFirst();
    }

    static ClusterOperatorStatusCondition retrieved(String status, String reason) {
        return new ClusterOperatorStatusCondition(
                null, "not quoted", reason, status, "RetrievedUpdates");
    }

    @Test
    void recommendedUpdate() {
        Release available = new Release();
        available.setVersion("7.1.4");
        assertThat(
                        Preconditions.check(
                                input(
                                        "7.1.0",
                                        "i",
                                        "7.1.4",
                                        List.of(),
                                        List.of(available),
                                        List.of(),
                                        "",
                                        null)))
                .isEmpty();
        assertThat(recommended(List.of(), "fast-7.1", null).orElseThrow())
                .isEqualTo(
                        new Precondition(
                                Precondition.RECOMMENDED,
                                "UnknownUpdate",
                                "No RetrievedUpdates, so the recommended status of updating from"
                                        + " 7.1.0 to 7.1.4 is unknown.",
                                false));
        assertThat(
                        recommended(
                                List.of(
                                        conditional(
                                                "7.1.4",
                                                condition(
                                                        "Recommended",
                                                        "True",
                                                        "Fine",
                                                        "Nothing applies."))),
                                "fast-7.1",
                                null))
                .isEmpty();
        Precondition no =
                recommended(
                                List.of(
                                        conditional(
                                                "7.1.4",
                                                condition(
                                                        "Recommended",
                                                        "False",
                                                        "DiskPressure",
                                                        "Nodes with small disks stall."))),
                                "fast-7.1",
                                null)
                        .orElseThrow();
        assertThat(no.reason()).isEqualTo("DiskPressure");
        assertThat(no.message())
                .isEqualTo(
                        "Update from 7.1.0 to 7.1.4 is not recommended:\n\n"
                                + "Nodes with small disks stall.");
        assertThat(
                        recommended(
                                        List.of(
                                                conditional(
                                                        "7.1.4",
                                                        condition(
                                                                "Recommended",
                                                                "Unknown",
                                                                "EvaluationFailed",
                                                                "Prometheus is away."))),
                                        "fast-7.1",
                                        null)
                                .orElseThrow()
                                .message())
                .isEqualTo(
                        "Update from 7.1.0 to 7.1.4 is Recommended=Unknown: EvaluationFailed:"
                                + " Prometheus is away.");
        assertThat(
                        recommended(
                                        List.of(
                                                conditional(
                                                        "7.1.4",
                                                        condition("Other", "True", "X", "Y"))),
                                        "fast-7.1",
                                        null)
                                .orElseThrow())
                .extracting(Precondition::reason, Precondition::message)
                .containsExactly(
                        "UnknownConditionType",
                        "Update from 7.1.0 to 7.1.4 has a status.conditionalUpdates entry, but no"
                                + " Recommended condition.");
        assertThat(recommended(List.of(), "", null).orElseThrow())
                .extracting(Precondition::reason, Precondition::message)
                .containsExactly(
                        "NoChannel",
                        "Configured channel is unset, so the recommended status of updating from"
                                + " 7.1.0 to 7.1.4 is unknown.");
        assertThat(
                        recommended(List.of(), "fast-7.1", retrieved("True", "AsExpected"))
                                .orElseThrow()
                                .message())
                .isEqualTo(
                        "RetrievedUpdates=True (AsExpected), so the update from 7.1.0 to 7.1.4 is"
                                + " probably neither recommended nor supported.");
        assertThat(
                        recommended(List.of(), "fast-7.1", retrieved("False", "RemoteFailed"))
                                .orElseThrow()
                                .message())
                .isEqualTo(
                        "RetrievedUpdates=False (RemoteFailed), so the recommended status of"
                                + " updating from 7.1.0 to 7.1.4 is unknown.");
    }

    static Precondition failed(String name, String reason, String message, boolean blocking) {
        return new Precondition(name, reason, message, blocking);
    }

    @Test
    void summaries() {
        assertThat(PreconditionSummary.of(List.of(), false)).isEmpty();
        Precondition warning =
                failed(
                        Precondition.RECOMMENDED,
                        "UnknownUpdate",
                        "update from C to D is probably neither recommended nor supported.",
                        false);
        String warned =
                "Precondition \"ClusterVersionRecommendedUpdate\" failed because of"
                        + " \"UnknownUpdate\": update from C to D is probably neither recommended"
                        + " nor supported.";
        assertThat(PreconditionSummary.of(List.of(warning), false))
                .contains(new PreconditionSummary(false, warned));
        // a warning forced through is no "forced through blocking failures"
        assertThat(PreconditionSummary.of(List.of(warning), true))
                .contains(new PreconditionSummary(false, warned));
        Precondition hop =
                failed(Precondition.GIANT_HOP, "MajorVersionUpdate", "D is too far.", true);
        String hopped =
                "Precondition \"ClusterVersionGiantHop\" failed because of"
                        + " \"MajorVersionUpdate\": D is too far.";
        assertThat(PreconditionSummary.of(List.of(hop), false))
                .contains(new PreconditionSummary(true, hopped));
        assertThat(PreconditionSummary.of(List.of(hop), true))
                .contains(
                        new PreconditionSummary(
                                false, "Forced through blocking failures: " + hopped));
        // several: every one listed, warnings included, blocking when one blocks
        assertThat(PreconditionSummary.of(List.of(hop, warning), false))
                .contains(
                        new PreconditionSummary(
                                true,
                                "Multiple precondition checks failed:\n* "
                                        + hopped
                                        + "\n* "
                                        + warned));
        assertThat(PreconditionSummary.of(List.of(hop, warning), true).orElseThrow().message())
                .isEqualTo(
                        "Forced through blocking failures: Multiple precondition checks failed:\n* "
                                + hopped
                                + "\n* "
                                + warned);
    }
}
