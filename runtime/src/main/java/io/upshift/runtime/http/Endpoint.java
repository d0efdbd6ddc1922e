package io.upshift.runtime.http;

/** What a server answers: a reply to every request that got past the server's own limits. */
@FunctionalInterface
public interface Endpoint {
    Reply answer(Request request);
}
