package io.upshift.base.gofmt;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

class GoJsonTest {
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    @Test
    void indentsAsMarshalIndentWithEmptyContainersCompactAndNoTrailingNewline() {
        ObjectNode doc = NODES.objectNode();
        doc.put("kind", "x");
        doc.putArray("empty");
        doc.putObject("none");
        doc.putArray("list").add("a").add("b");
        doc.putObject("nested").put("flag", false).putNull("gone").put("n", 42);
        assertThat(GoJson.marshalIndent(doc, "  "))
                .isEqualTo(
                        "{\n"
                                + "  \"kind\": \"x\",\n"
                                + "  \"empty\": [],\n"
                                + "  \"none\": {},\n"
                                + "  \"list\": [\n"
                                + "    \"a\",\n"
                                + "    \"b\"\n"
                                + "  ],\n"
                                + "  \"nested\": {\n"
                                + "    \"flag\": false,\n"
                                + "    \"gone\": null,\n"
                                + "    \"n\": 42\n"
                                + "  }\n"
                                + "}");
        assertThat(GoJson.marshalIndent(NODES.objectNode(), "  ")).isEqualTo("{}");
        assertThat(GoJson.marshalIndent(NODES.nullNode(), "  ")).isEqualTo("null");
    }

    @Test
    void escapesHtmlCharactersAndControlsAsGoDoes() {
        assertThat(GoJson.quote("a<b>&c")).isEqualTo("\"a\\u003cb\\u003e\\u0026c\"");
        assertThat(GoJson.quote("q\"b\\s/")).isEqualTo("\"q\\\"b\\\\s/\"");
        assertThat(GoJson.quote("\b\f\n\r\t")).isEqualTo("\"\\b\\f\\n\\r\\t\"");
        assertThat(GoJson.quote("\u0001\u001f\u007f")).isEqualTo("\"\\u0001\\u001f\u007f\"");
        assertThat(GoJson.quote("line\u2028para\u2029")).isEqualTo("\"line\\u2028para\\u2029\"");
        // other non-ASCII text is written as it is, in UTF-8
        assertThat(GoJson.quote("é😀")).isEqualTo("\"é😀\"");
        // a lone surrogate cannot be UTF-8: Go writes the replacement character
        assertThat(GoJson.quote("a\ud800b")).isEqualTo("\"a\\ufffdb\"");
    }

    @Test
    void keysAreEscapedToo() {
        ObjectNode doc = NODES.objectNode().put("a&b", "<x>");
        assertThat(GoJson.marshalIndent(doc, "\t"))
                .isEqualTo("{\n\t\"a\\u0026b\": \"\\u003cx\\u003e\"\n}");
    }

    @Test
    void refusesWhatGoWouldFormatItsOwnWay() {
        assertThatThrownBy(() -> GoJson.marshalIndent(NODES.numberNode(1.5), "  "))
                .isInstanceOf(IllegalArgumentException.class);
    }
}
