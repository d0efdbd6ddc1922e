package io.upshift.releases.signatures;

import io.upshift.releases.image.Egress;
import io.upshift.releases.verify.SignatureStore;
import io.upshift.releases.verify.VerifierConfig;
import io.upshift.runtime.fetch.Deadline;
import io.upshift.runtime.tls.CaBundle;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Opens signature stores: by URL ({@code file://} on disk, {@code http(s)://} over the network), as
 * a release's verification ConfigMap lists them, or as ClusterVersion {@code spec.signatureStores}
 * configures them. Every store on the network is read within {@link Limits}.
 */
public final class SignatureStores {

    /**
     * How much and how long reading signature stores may take.
     *
     * @param signatureBytes one signature's answer at most (a signature is a few hundred bytes)
     * @param perAnswer one answer, from the request to its last byte
     * @param perStore every answer of one store, for one digest
     * @param perVerification every store read for one verification: upstream's controller gives
     *     verification half of its 4-minute retrieval deadline
     */
    public record Limits(
            long signatureBytes, Duration perAnswer, Duration perStore, Duration perVerification) {
        public static final Limits DEFAULT =
                new Limits(
                        SignatureStore.MAX_SIGNATURE_BYTES,
                        Duration.ofSeconds(30),
                        Duration.ofSeconds(60),
                        Duration.ofMinutes(2));
    }

    /** How long connecting to a store may take (within its answer's limit). */
    static final Duration CONNECT = Duration.ofSeconds(10);

    private final HttpClient http;
    private final Egress egress;
    private final Limits limits;
    private final Deadline deadline;

    public SignatureStores(HttpClient http) {
        this(http, Limits.DEFAULT);
    }

    public SignatureStores(HttpClient http, Limits limits) {
        this(http, null, limits, null);
    }

    private SignatureStores(HttpClient http, Egress egress, Limits limits, Deadline deadline) {
        this.http = http;
        this.egress = egress;
        this.limits = limits;
        this.deadline = deadline;
    }

    public Limits limits() {
        return limits;
    }

    /**
     * The same stores, reached the cluster's way (its proxy and trusted CA bundle), as upstream's
     * signature stores share the update graph's transport.
     */
    public SignatureStores through(Egress egress) throws IOException {
        return new SignatureStores(egress.httpClient(CONNECT), egress, limits, deadline);
    }

    /**
     * The same stores, every read of them over by {@link Limits#perVerification()} from now: what
     * one verification reads.
     */
    public SignatureStores forOneVerification() {
        return new SignatureStores(
                http,
                egress,
                limits,
                Deadline.in(limits.perVerification(), "verifying a release signature"));
    }

    /** A store of a release's verification ConfigMap: file, http or https. */
    public SignatureStore open(URI uri) {
        return "file".equals(uri.getScheme())
                ? VerifierConfig.openFile(uri)
                : new HttpSignatureStore(uri, http, limits, deadline);
    }

    /** Where the PEM bundles that {@code spec.signatureStores[].ca} names are read. */
    public interface CaBundles {
        /**
         * The PEM under {@code ca.crt} of ConfigMap {@code openshift-config/<name>}; empty when it
         * is not known here (the store is then trusted as it would be without {@code ca}).
         *
         * @throws IOException naming what is missing: the ConfigMap, or its key
         */
        Optional<String> read(String name) throws IOException;
    }

    /**
     * The stores {@code spec.signatureStores} configures, in order. One that cannot be honoured
     * (its URL is not an absolute http or https URL, past the 32 the CRD allows, or its {@code ca}
     * is missing or holds no certificate, which the API says makes the store not honoured) is a
     * store whose every read fails, naming the entry and why, so that verification says it.
     */
    public List<SignatureStore> openConfigured(List<ConfiguredStore> configured, CaBundles cas) {
        List<SignatureStore> out = new ArrayList<>();
        for (int i = 0; i < configured.size(); i++) {
            ConfiguredStore c = configured.get(i);
            out.add(openConfigured(i, c, cas));
        }
        return out;
    }

    private SignatureStore openConfigured(int index, ConfiguredStore c, CaBundles cas) {
        String name = c.describe(index);
        if (index >= ConfiguredStore.MAX_STORES)
            return new Unhonoured(
                    name, "at most " + ConfiguredStore.MAX_STORES + " signature stores are read");
        Optional<String> bad = c.urlProblem();
        if (bad.isPresent()) return new Unhonoured(name, bad.get());
        if (c.caConfigMap().isEmpty()) return open(c.uri());
        String where =
                "ConfigMap " + ConfiguredStore.CA_NAMESPACE + "/" + c.caConfigMap() + " (its ca)";
        Optional<String> pem;
        try {
            pem = cas.read(c.caConfigMap());
        } catch (IOException e) {
            return new Unhonoured(name, e.getMessage());
        }
        if (pem.isEmpty()) return open(c.uri());
        if (CaBundle.parse(pem.get()).isEmpty())
            return new Unhonoured(
                    name, where + " holds no PEM certificate under " + ConfiguredStore.CA_KEY);
        Egress base = egress == null ? Egress.NONE : egress;
        try {
            HttpClient trusting =
                    new Egress(base.proxy(), pem.get(), base.unknown()).httpClient(CONNECT);
            return new HttpSignatureStore(c.uri(), trusting, limits, deadline);
        } catch (IOException e) {
            return new Unhonoured(name, e.getMessage());
        }
    }

    /** A configured store that is not read: each read says why. */
    record Unhonoured(String name, String why) implements SignatureStore {
        @Override
        public List<byte[]> signatures(String digest) throws IOException {
            throw new IOException("not honoured: " + why);
        }
    }
}
