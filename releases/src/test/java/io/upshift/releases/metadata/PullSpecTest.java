package io.upshift.releases.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Pull specs split and refused as library-go's {@code image/reference.Parse} does (read from its
 * source).
 */
class PullSpecTest {
    static final String DIGEST = "sha256:" + "a".repeat(64);

    @Test
    void splits() {
        assertThat(PullSpec.parse("quay.io/openshift-release-dev/ocp-release@" + DIGEST))
                .isEqualTo(
                        new PullSpec(
                                "quay.io", "openshift-release-dev", "ocp-release", "", DIGEST));
        assertThat(PullSpec.parse("localhost:5000/ocp/release:4.18.2-x86_64"))
                .isEqualTo(new PullSpec("localhost:5000", "ocp", "release", "4.18.2-x86_64", ""));
        assertThat(PullSpec.parse("localhost/release:4.18.2"))
                .isEqualTo(new PullSpec("localhost", "", "release", "4.18.2", ""));
        assertThat(PullSpec.parse("ocp/release:4.18.2"))
                .isEqualTo(new PullSpec("", "ocp", "release", "4.18.2", ""));
        assertThat(PullSpec.parse("release:4.18.2"))
                .isEqualTo(new PullSpec("", "", "release", "4.18.2", ""));
        assertThat(PullSpec.parse("mirror.example/a/b/c:t@" + DIGEST))
                .isEqualTo(new PullSpec("mirror.example", "a", "b/c", "t", DIGEST));
        // a lone name that looks like a host is a registry, the whole spec, without its tag
        assertThat(PullSpec.parse("4.0.1")).isEqualTo(new PullSpec("4.0.1", "", "", "", ""));
        // a first element with "." or ":" (or "localhost") is a registry; otherwise a namespace
        assertThat(PullSpec.parse("a__b--c_d/f"))
                .isEqualTo(new PullSpec("", "a__b--c_d", "f", "", ""));
        assertThat(PullSpec.parse("a__b--c.d_e/f"))
                .isEqualTo(new PullSpec("a__b--c.d_e", "", "f", "", ""));
    }

    @Test
    void refuses() {
        assertThatThrownBy(() -> PullSpec.parse(""))
                .hasMessage("repository name must have at least one component");
        assertThatThrownBy(() -> PullSpec.parse("quay.io/OCP/release:4.18"))
                .hasMessage("repository name must be lowercase");
        assertThatThrownBy(() -> PullSpec.parse("quay.io/ocp/release@sha256:abc"))
                .hasMessage("invalid reference format");
        assertThatThrownBy(() -> PullSpec.parse("quay.io/ocp/release@md5:" + "a".repeat(32)))
                .hasMessage("unsupported digest algorithm");
        assertThatThrownBy(() -> PullSpec.parse("quay.io/ocp/release@sha256:" + "a".repeat(63)))
                .hasMessage("invalid checksum digest length");
        assertThatThrownBy(() -> PullSpec.parse("quay.io/" + "a".repeat(250)))
                .hasMessage("repository name must not be more than 255 characters");
    }

    @Test
    void aLongNameThatFailsFailsFast() {
        // a parser that backtracks on a failing name takes exponential time in its length:
        // 5000 characters would not end in a lifetime, so a generous bound is reached only by
        // such a parser, never by a linear one on a slow machine (time is not what is measured)
        assertTimeoutPreemptively(
                Duration.ofSeconds(60),
                () ->
                        assertThatThrownBy(() -> PullSpec.parse("a".repeat(5000) + "!"))
                                .hasMessage("invalid reference format"));
    }
}
