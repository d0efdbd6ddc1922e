package io.upshift.testkit;

import io.fabric8.kubernetes.client.KubernetesClientException;
import java.util.function.Supplier;

/**
 * A test's read-modify-write (fabric8's {@code edit}, which sends the resourceVersion it read) done
 * again when the API server answers 409: a controller wrote the object between the read and the
 * write, as a running controller may at any moment. Other errors, and a conflict that outlasts a
 * few attempts, are thrown.
 */
public final class Conflicts {

    private static final int ATTEMPTS = 10;

    private Conflicts() {}

    public static <T> T retry(Supplier<T> edit) {
        for (int attempt = 1; ; attempt++) {
            try {
                return edit.get();
            } catch (KubernetesClientException e) {
                if (e.getCode() != 409 || attempt == ATTEMPTS) throw e;
            }
        }
    }
}
