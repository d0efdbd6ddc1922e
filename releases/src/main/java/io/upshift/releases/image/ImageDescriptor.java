package io.upshift.releases.image;

/** A content-addressed blob an image manifest points at. */
public record ImageDescriptor(String mediaType, String digest, long size) {}
