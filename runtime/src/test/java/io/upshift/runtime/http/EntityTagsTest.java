package io.upshift.runtime.http;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EntityTagsTest {
    static final String TAG = "\"3a2d\"", GZIP = "\"3a2d-gzip\"";

    @Test
    void aListNamingTheTagWeaklyOrNot() {
        assertThat(EntityTags.matches("\"3a2d\"", TAG)).isTrue();
        assertThat(EntityTags.matches("W/\"3a2d\"", TAG)).isTrue();
        assertThat(EntityTags.matches("\"old\", \"3a2d-gzip\"", TAG, GZIP)).isTrue();
        assertThat(EntityTags.matches("\"old\",W/\"3a2d\"", TAG, GZIP)).isTrue();
        assertThat(EntityTags.matches("*", TAG)).isTrue();
        assertThat(EntityTags.matches("\"a,b\", \"3a2d\"", TAG)).as("a comma in a tag").isTrue();
    }

    @Test
    void otherTagsOrNoneOrUnreadable() {
        assertThat(EntityTags.matches(null, TAG)).isFalse();
        assertThat(EntityTags.matches("", TAG)).isFalse();
        assertThat(EntityTags.matches("\"3a2\"", TAG)).isFalse();
        assertThat(EntityTags.matches("\"3a2d", TAG)).as("unterminated").isFalse();
        assertThat(EntityTags.matches("3a2d", TAG)).as("unquoted").isFalse();
        assertThat(EntityTags.matches("\"3a2d-gzip\"", TAG)).isFalse();
        assertThat(EntityTags.matches("\"x\"".repeat(10_000), TAG)).isFalse();
    }
}
