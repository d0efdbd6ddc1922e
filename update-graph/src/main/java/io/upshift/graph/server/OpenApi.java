package io.upshift.graph.server;

import java.nio.charset.StandardCharsets;

/** The OpenAPI description of the graph endpoint. */
final class OpenApi {

    private OpenApi() {}

    static byte[] document(String prefix) {
        String doc =
                """
                {"openapi":"3.0.0","info":{"title":"Upshift update graph","version":"1.0.0"},
                 "paths":{"PREFIX/v1/graph":{"get":{"summary":"The update graph of one channel and architecture",
                  "parameters":[
                   {"name":"channel","in":"query","required":true,"schema":{"type":"string","pattern":"^[0-9a-z\\\\-.]+$"}},
                   {"name":"arch","in":"query","required":false,"schema":{"type":"string","default":"amd64","pattern":"^[0-9a-z]+$"}},
                   {"name":"version","in":"query","required":false,"schema":{"type":"string"}},
                   {"name":"id","in":"query","required":false,"schema":{"type":"string"}}],
                  "responses":{"200":{"description":"nodes, edges (pairs of node indices) and conditionalEdges",
                    "content":{"application/json":{},"application/vnd.redhat.cincinnati.v1+json":{}}},
                   "400":{"description":"{\\"kind\\":\\"missing_params\\"|\\"invalid_params\\",\\"value\\":message}"},
                   "406":{"description":"{\\"kind\\":\\"invalid_content_type\\",\\"value\\":message}"}}}}}}
                """
                        .replace("PREFIX", prefix);
        return doc.getBytes(StandardCharsets.UTF_8);
    }
}
