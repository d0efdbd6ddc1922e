package io.upshift.releases.image;

import java.net.ProxySelector;

/**
 * How to reach registries for one pull: the logins (a docker config.json or the cluster's pull
 * secret), the mirrors to try, the proxy to go through, and the architecture to pick from a
 * manifest list (amd64, arm64, ppc64le, s390x).
 */
public record RegistryAccess(
        DockerCredentials credentials,
        RegistryMirrors mirrors,
        ProxySelector proxy,
        String architecture,
        boolean insecure) {

    /**
     * Direct, unmirrored access with {@code credentials}, picking this machine's architecture from
     * manifest lists.
     */
    public static RegistryAccess of(DockerCredentials credentials, boolean insecure) {
        return new RegistryAccess(
                credentials,
                RegistryMirrors.none(),
                ProxySelector.of(null),
                Architectures.current(),
                insecure);
    }

    public RegistryAccess withCredentials(DockerCredentials c) {
        return new RegistryAccess(c, mirrors, proxy, architecture, insecure);
    }

    public RegistryAccess withMirrors(RegistryMirrors m) {
        return new RegistryAccess(credentials, m, proxy, architecture, insecure);
    }

    public RegistryAccess withProxy(ProxySelector p) {
        return new RegistryAccess(credentials, mirrors, p, architecture, insecure);
    }

    public RegistryAccess withArchitecture(String a) {
        return new RegistryAccess(credentials, mirrors, proxy, a, insecure);
    }
}
