package io.upshift.releases.metadata;

/**
 * Why a release was rejected. The code is what status conditions, logs and the command line show;
 * the names follow the reference's reason style (PascalCase) so that they read the same in a
 * ClusterVersion condition.
 */
public enum Reason {
    // The payload's content
    PAYLOAD_NOT_FOUND("PayloadNotFound"),
    RELEASE_METADATA_INVALID("ReleaseMetadataInvalid"),
    RELEASE_METADATA_WRONG_KIND("ReleaseMetadataWrongKind"),
    IMAGE_REFERENCES_INVALID("ImageReferencesInvalid"),
    IMAGE_REFERENCES_MISMATCH("ImageReferencesMismatch"),
    MANIFEST_INVALID("ManifestInvalid"),
    // Signatures
    VERIFIER_NOT_CONFIGURED("VerifierNotConfigured"),
    NOT_BY_DIGEST("ReleaseNotByDigest"),
    SIGNATURE_MISSING("SignatureMissing"),
    SIGNATURE_MALFORMED("SignatureMalformed"),
    SIGNATURE_UNKNOWN_KEY("SignatureUnknownKey"),
    SIGNATURE_INVALID("SignatureInvalid"),
    SIGNATURE_DIGEST_MISMATCH("SignatureDigestMismatch"),
    SIGNATURE_STORE_FAILED("SignatureStoreFailed"),
    KEY_INVALID("KeyInvalid"),
    // Images and registries
    REFERENCE_INVALID("ImageReferenceInvalid"),
    REGISTRY_UNAUTHORIZED("RegistryUnauthorized"),
    IMAGE_NOT_FOUND("ImageNotFound"),
    REGISTRY_FAILED("RegistryFailed"),
    BLOB_TRUNCATED("BlobTruncated"),
    BLOB_DIGEST_MISMATCH("BlobDigestMismatch"),
    IMAGE_INVALID("ImageInvalid"),
    ARCHITECTURE_MISSING("ArchitectureMissing"),
    // The cluster's registry config (mirror sets, proxy) could not be read: pulling without it
    // would ignore it
    CLUSTER_CONFIG_UNREADABLE("ClusterConfigUnreadable"),
    // Extraction
    UNSAFE_LAYER_ENTRY("UnsafeLayerEntry"),
    PAYLOAD_TOO_LARGE("PayloadTooLarge"),
    TARGET_NOT_EMPTY("TargetNotEmpty"),
    // The local disk: full, read-only, not ours
    WRITE_FAILED("WriteFailed");

    private final String code;

    Reason(String code) {
        this.code = code;
    }

    /** The reason as conditions and messages show it, e.g. {@code SignatureUnknownKey}. */
    public String code() {
        return code;
    }
}
