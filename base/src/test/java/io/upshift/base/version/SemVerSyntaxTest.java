package io.upshift.base.version;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The verdicts of github.com/blang/semver v3's {@code Parse} (the version oc vendors), written from
 * its source.
 */
class SemVerSyntaxTest {

    @Test
    void versions() {
        for (String v :
                new String[] {
                    "4.18.1",
                    "4.19.0-rc.2",
                    "4.19.0-0.nightly-2025-02-03-040506",
                    "1.0.0+build.01",
                    "1.2.3-01a",
                    "0.0.0"
                }) {
            assertThat(SemVerSyntax.problem(v)).as(v).isEmpty();
        }
    }

    @Test
    void whyNot() {
        assertThat(SemVerSyntax.problem("")).contains("Version string empty");
        assertThat(SemVerSyntax.problem("4.18")).contains("No Major.Minor.Patch elements found");
        assertThat(SemVerSyntax.problem("v4.18.1"))
                .contains("Invalid character(s) found in major number \"v4\"");
        assertThat(SemVerSyntax.problem("04.18.1"))
                .contains("Major number must not contain leading zeroes \"04\"");
        assertThat(SemVerSyntax.problem("4.x.1"))
                .contains("Invalid character(s) found in minor number \"x\"");
        assertThat(SemVerSyntax.problem("4..1"))
                .contains("strconv.ParseUint: parsing \"\": invalid syntax");
        assertThat(SemVerSyntax.problem("4.18.1.2"))
                .contains("Invalid character(s) found in patch number \"1.2\"");
        assertThat(SemVerSyntax.problem("4.18.01"))
                .contains("Patch number must not contain leading zeroes \"01\"");
        assertThat(SemVerSyntax.problem("4.18.1-")).contains("Prerelease is empty");
        assertThat(SemVerSyntax.problem("4.18.1-rc.01"))
                .contains("Numeric PreRelease version must not contain leading zeroes \"01\"");
        assertThat(SemVerSyntax.problem("4.18.1-rc_1"))
                .contains("Invalid character(s) found in prerelease \"rc_1\"");
        assertThat(SemVerSyntax.problem("4.18.1+")).contains("Build meta data is empty");
        assertThat(SemVerSyntax.problem("4.18.1+a~b"))
                .contains("Invalid character(s) found in build meta data \"a~b\"");
        assertThat(SemVerSyntax.problem("18446744073709551616.0.0"))
                .contains(
                        "strconv.ParseUint: parsing \"18446744073709551616\": value out of range");
    }
}
