package io.upshift.clusterversion.upgrade;

import static io.upshift.clusterversion.upgrade.Cv.image;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * {@code upgrade accept}, as openshift/oc main {@code pkg/cli/admin/upgrade/accept/accept.go} (the
 * command is not in release-4.19): the list computations are the cases of its {@code
 * Test_getAcceptRisks}, the messages its format strings.
 */
class AcceptRisksTest {

    static AcceptRisks.Request parse(String arg, boolean replace, boolean clear) {
        return AcceptRisks.parse(arg == null ? List.of() : List.of(arg), replace, clear);
    }

    @Test
    void listsAsOcBuildsThem() {
        assertThat(
                        AcceptRisks.apply(
                                null,
                                new AcceptRisks.Request(
                                        new TreeSet<>(), new TreeSet<>(), false, false)))
                .isNull();
        assertThat(
                        AcceptRisks.apply(
                                List.of("riskA", "riskB"),
                                parse("riskB,riskC,riskA-,riskD-", false, false)))
                .containsExactly("riskB", "riskC");
        assertThat(AcceptRisks.apply(List.of("riskA", "riskB"), parse("riskC,riskB", true, false)))
                .containsExactly("riskB", "riskC");
        assertThat(AcceptRisks.apply(List.of("riskA", "riskB"), parse(null, false, true))).isNull();
        // removing the last one leaves no list at all
        assertThat(AcceptRisks.apply(List.of("riskA"), parse("riskA-", false, false))).isNull();
    }

    @Test
    void usageErrors() {
        assertThatThrownBy(() -> parse(null, true, true))
                .hasMessage("--clear and --replace are mutually exclusive");
        assertThatThrownBy(() -> parse("RiskA", false, true))
                .hasMessage("unknown command \"RiskA\"");
        assertThatThrownBy(() -> parse(null, false, false))
                .hasMessage("no positional arguments given");
        assertThatThrownBy(() -> AcceptRisks.parse(List.of("A", "B"), false, false))
                .hasMessage("multiple positional arguments given");
        assertThatThrownBy(() -> parse("RiskA,,RiskB", false, false))
                .hasMessage("illegal risk \"\"");
        assertThatThrownBy(() -> parse("RiskA, - ", false, false)).hasMessage("illegal risk \"-\"");
        assertThatThrownBy(() -> parse("RiskB,RiskA,RiskA-,RiskB-", false, false))
                .hasMessage("requested risks with both Risk and Risk-: RiskA,RiskB");
        assertThatThrownBy(() -> parse("RiskA,RiskB-", true, false))
                .hasMessage("The suffix '-' on risks is not allowed if --replace is specified");
    }

    @Test
    void writesOnlyAChange() {
        Decision added =
                AcceptRisks.decide(
                        parse(" RiskB , RiskA ", false, false), Cv.at("4.18.1", image('1')).get());
        assertThat(((Decision.Patch) added).body())
                .isEqualTo(
                        "{\"spec\":{\"desiredUpdate\":{\"acceptRisks\":[{\"name\":\"RiskA\"},{\"name\":\"RiskB\"}]}}}");
        assertThat(((Decision.Patch) added).done().apply(null))
                .isEqualTo("info: Accept risks are [RiskA, RiskB]\n");

        var accepted =
                Cv.at("4.18.1", image('1'))
                        .desiredUpdate("4.18.1", image('1'), List.of("RiskA"))
                        .get();
        assertThat(AcceptRisks.decide(parse("RiskA", false, false), accepted))
                .isEqualTo(
                        new Decision.Unchanged(List.of(), "info: Accept risks are not changed\n"));

        Decision cleared = AcceptRisks.decide(parse(null, false, true), accepted);
        assertThat(((Decision.Patch) cleared).body())
                .isEqualTo("{\"spec\":{\"desiredUpdate\":{\"acceptRisks\":null}}}");
        assertThat(((Decision.Patch) cleared).done().apply(null))
                .isEqualTo("info: Accept risks are []\n");

        assertThat(AcceptRisks.decide(parse(null, false, true), Cv.at("4.18.1", image('1')).get()))
                .isInstanceOf(Decision.Unchanged.class);
    }
}
