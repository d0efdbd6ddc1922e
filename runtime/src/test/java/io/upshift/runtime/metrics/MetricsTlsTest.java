package io.upshift.runtime.metrics;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.security.KeyStore;
import java.security.PrivateKey;
import java.security.cert.Certificate;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManagerFactory;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --metrics-tls-cert/--metrics-tls-key}: HTTPS with a PEM certificate and key, made here by
 * the JDK's keytool (self-signed for 127.0.0.1), in each key encoding a Kubernetes TLS Secret may
 * hold; a rotated pair is served from the next connection on.
 */
@Tag("e2e")
class MetricsTlsTest {
    @TempDir Path dir;

    /** keytool takes a second or two a pair: each is made once for the whole class. */
    @TempDir static Path keys;

    private static final Map<String, KeyPair> PAIRS = new ConcurrentHashMap<>();

    @ParameterizedTest
    @ValueSource(strings = {"RSA PKCS#8", "RSA PKCS#1", "EC SEC 1"})
    void servesHttpsWithThePemPair(String kind) throws Exception {
        KeyPair pair = keytool(kind.split(" ")[0], kind.split(" ")[0]);
        Path cert = dir.resolve("tls.crt"), key = dir.resolve("tls.key");
        pair.write(cert, key, kind.substring(kind.indexOf(' ') + 1));
        try (MetricsServer server =
                MetricsServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        () -> "up 1\n",
                        ScrapeAccess.ANYONE,
                        ServingCertificate.load(cert, key))) {
            HttpResponse<String> ok = get(server, pair.certificate());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ok.body()).isEqualTo("up 1\n");
            assertThat(ok.sslSession())
                    .hasValueSatisfying(
                            s -> assertThat(s.getProtocol()).isIn("TLSv1.3", "TLSv1.2"));
        }
    }

    @Test
    void aRotatedCertificateIsServedFromTheNextConnection() throws Exception {
        KeyPair first = keytool("RSA", "RSA"), second = keytool("other", "RSA");
        Path cert = dir.resolve("tls.crt"), key = dir.resolve("tls.key");
        first.write(cert, key, "PKCS#8");
        try (MetricsServer server =
                MetricsServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        () -> "up 1\n",
                        ScrapeAccess.ANYONE,
                        ServingCertificate.load(cert, key))) {
            assertThat(get(server, first.certificate()).statusCode()).isEqualTo(200);

            second.write(cert, key, "PKCS#8");
            // the files' times move on, as a Secret's update in a pod does (whatever this file
            // system's time granularity)
            FileTime later = FileTime.from(Instant.now().plusSeconds(5));
            Files.setLastModifiedTime(cert, later);
            Files.setLastModifiedTime(key, later);
            assertThat(get(server, second.certificate()).statusCode()).isEqualTo(200);
            assertThatThrownBy(() -> get(server, first.certificate()))
                    .isInstanceOf(SSLHandshakeException.class);

            // a change that does not read as a pair keeps the last good one
            Files.writeString(key, "not a key");
            Files.setLastModifiedTime(key, FileTime.from(Instant.now().plusSeconds(10)));
            assertThat(get(server, second.certificate()).statusCode()).isEqualTo(200);
        }
    }

    @Test
    void aKeyThatIsNotTheCertificatesIsRefusedAtStart() throws Exception {
        KeyPair rsa = keytool("RSA", "RSA"),
                other = keytool("other", "RSA"),
                ec = keytool("EC", "EC");
        Path cert = dir.resolve("tls.crt"), key = dir.resolve("tls.key");
        rsa.write(cert, key, "PKCS#8");
        other.write(dir.resolve("other.crt"), key, "PKCS#8");
        assertThatThrownBy(() -> ServingCertificate.load(cert, key))
                .hasMessageContaining(
                        "is not the key of " + cert + "'s certificate (RSA key, RSA certificate)");
        ec.write(dir.resolve("ec.crt"), key, "PKCS#8");
        assertThatThrownBy(() -> ServingCertificate.load(cert, key))
                .hasMessageContaining("(EC key, RSA certificate)");
        Files.writeString(
                key,
                "-----BEGIN ENCRYPTED PRIVATE KEY-----\n"
                        + "AAAA\n"
                        + "-----END ENCRYPTED PRIVATE KEY-----\n");
        assertThatThrownBy(() -> ServingCertificate.load(cert, key))
                .hasMessageContaining("an encrypted key");
    }

    /**
     * Without a certificate, HTTPS is still served, with one made at start for the names given and
     * signed by its own key; a client that trusts nothing else refuses it, one that pins it reads
     * the metrics.
     */
    @Test
    void withoutACertificateASelfSignedOneIsServed() throws Exception {
        ServingCertificate self =
                ServingCertificate.selfSigned(
                        List.of("upshift-metrics.upshift.svc", "localhost", "127.0.0.1", "::1"),
                        Instant.now());
        assertThat(self.isSelfSigned()).isTrue();
        assertThat(self.certificate().getSubjectX500Principal().getName())
                .isEqualTo("O=upshift self-signed,CN=upshift-metrics.upshift.svc");
        assertThat(self.certificate().getSubjectAlternativeNames())
                .extracting(n -> (Object) n.get(1))
                .containsExactly(
                        (Object) "upshift-metrics.upshift.svc",
                        "localhost",
                        "127.0.0.1",
                        "0:0:0:0:0:0:0:1");
        assertThat(self.fingerprint()).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");
        try (MetricsServer server =
                MetricsServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        () -> "up 1\n",
                        ScrapeAccess.ANYONE,
                        self)) {
            assertThat(get(server, self.certificate()).body()).isEqualTo("up 1\n");
            assertThatThrownBy(() -> get(server, keytool("RSA", "RSA").certificate()))
                    .isInstanceOf(SSLHandshakeException.class);
            // plain HTTP to the TLS port is not answered in the clear
            try (io.upshift.testkit.RawHttp raw =
                    io.upshift.testkit.RawHttp.connect(server.port())) {
                raw.send(io.upshift.testkit.RawHttp.get("/metrics"));
                assertThatThrownBy(raw::read).isInstanceOf(java.io.IOException.class);
            }
        }
    }

    /**
     * An optional Secret volume, empty on a plain cluster: a self-signed certificate until both
     * files are there, then theirs from the next connection on; one file without the other at start
     * is refused.
     */
    @Test
    void untilMountedServesASelfSignedCertificateUntilTheFilesAreThere() throws Exception {
        Path cert = dir.resolve("serving/tls.crt"), key = dir.resolve("serving/tls.key");
        ServingCertificate serving =
                ServingCertificate.untilMounted(cert, key, List.of("127.0.0.1"), Instant.now());
        assertThat(serving.isSelfSigned()).isTrue();
        Certificate self = serving.certificate();
        try (MetricsServer server =
                MetricsServer.start(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        () -> "up 1\n",
                        ScrapeAccess.ANYONE,
                        serving)) {
            assertThat(get(server, self).statusCode()).isEqualTo(200);
            KeyPair mounted = keytool("RSA", "RSA");
            Files.createDirectories(cert.getParent());
            mounted.write(cert, key, "PKCS#1");
            assertThat(get(server, mounted.certificate()).statusCode()).isEqualTo(200);
            assertThat(serving.isSelfSigned()).isFalse();
            assertThatThrownBy(() -> get(server, self)).isInstanceOf(SSLHandshakeException.class);
        }
        Files.delete(key);
        assertThatThrownBy(
                        () ->
                                ServingCertificate.untilMounted(
                                        cert, key, List.of("127.0.0.1"), Instant.now()))
                .isInstanceOf(java.nio.file.NoSuchFileException.class);
    }

    /** Plain HTTP is served only when asked for by name: HTTPS wants a certificate. */
    @Test
    void plainHttpOnlyByName() throws Exception {
        assertThatThrownBy(
                        () ->
                                MetricsServer.start(
                                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                                        () -> "up 1\n",
                                        ScrapeAccess.ANYONE,
                                        null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("startPlainHttp");
        try (MetricsServer server =
                MetricsServer.startPlainHttp(
                        new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        () -> "up 1\n",
                        ScrapeAccess.ANYONE)) {
            HttpResponse<String> r =
                    HttpClient.newHttpClient()
                            .send(
                                    HttpRequest.newBuilder(
                                                    URI.create(
                                                            "http://127.0.0.1:"
                                                                    + server.port()
                                                                    + "/metrics"))
                                            .build(),
                                    HttpResponse.BodyHandlers.ofString());
            assertThat(r.body()).isEqualTo("up 1\n");
        }
    }

    static HttpResponse<String> get(MetricsServer server, Certificate trusted) throws Exception {
        KeyStore trust = KeyStore.getInstance("PKCS12");
        trust.load(null, null);
        trust.setCertificateEntry("serving", trusted);
        TrustManagerFactory tmf =
                TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
        tmf.init(trust);
        SSLContext context = SSLContext.getInstance("TLS");
        context.init(null, tmf.getTrustManagers(), null);
        HttpClient client =
                HttpClient.newBuilder()
                        .sslContext(context)
                        .connectTimeout(Duration.ofSeconds(10))
                        .build();
        return client.send(
                HttpRequest.newBuilder(
                                URI.create("https://127.0.0.1:" + server.port() + "/metrics"))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    /** A self-signed certificate for 127.0.0.1 and its key. */
    record KeyPair(Certificate certificate, PrivateKey key) {
        /** Writes the certificate and the key, the key as PKCS#8, PKCS#1 (RSA) or SEC 1 (EC). */
        void write(Path certFile, Path keyFile, String encoding) throws Exception {
            Files.writeString(certFile, pem("CERTIFICATE", certificate.getEncoded()));
            byte[] pkcs8 = key.getEncoded();
            Files.writeString(
                    keyFile,
                    switch (encoding) {
                        case "PKCS#8" -> pem("PRIVATE KEY", pkcs8);
                        case "PKCS#1" ->
                                pem("RSA PRIVATE KEY", Der.children(pkcs8).get(2).content());
                        case "SEC 1" -> pem("EC PRIVATE KEY", sec1(pkcs8));
                        default -> throw new IllegalArgumentException(encoding);
                    });
        }

        /**
         * An EC key's SEC 1 form with its curve, as OpenSSL writes it: PKCS#8's inner key with the
         * curve added as [0].
         */
        private static byte[] sec1(byte[] pkcs8) {
            List<Der> outer = Der.children(pkcs8);
            byte[] curve = Der.children(outer.get(1).encoded()).get(1).encoded();
            List<Der> inner = Der.children(outer.get(2).content());
            ByteArrayOutputStream fields = new ByteArrayOutputStream();
            fields.writeBytes(inner.get(0).encoded()); // version
            fields.writeBytes(inner.get(1).encoded()); // the private key
            fields.writeBytes(Der.encode(0xa0, curve));
            for (Der d : inner.subList(2, inner.size()))
                if (d.tag() != 0xa0) fields.writeBytes(d.encoded());
            return Der.encode(0x30, fields.toByteArray());
        }
    }

    /**
     * The JDK's keytool makes a key pair and a self-signed certificate for 127.0.0.1 (once per
     * name).
     */
    private static KeyPair keytool(String name, String algorithm) throws Exception {
        KeyPair made = PAIRS.get(name);
        if (made != null) return made;
        Path store = keys.resolve(name + ".p12");
        Process p =
                new ProcessBuilder(
                                Path.of(System.getProperty("java.home"), "bin", "keytool")
                                        .toString(),
                                "-genkeypair",
                                "-alias",
                                name,
                                "-keyalg",
                                algorithm,
                                "-dname",
                                "CN=" + name,
                                "-ext",
                                "SAN=ip:127.0.0.1",
                                "-validity",
                                "2",
                                "-storetype",
                                "PKCS12",
                                "-keystore",
                                store.toString(),
                                "-storepass",
                                "changeit",
                                "-keypass",
                                "changeit")
                        .redirectErrorStream(true)
                        .start();
        String output;
        try (InputStream in = p.getInputStream()) {
            output = new String(in.readAllBytes(), UTF_8);
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(output).isZero();
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "changeit".toCharArray());
        }
        made =
                new KeyPair(
                        ks.getCertificate(name),
                        (PrivateKey) ks.getKey(name, "changeit".toCharArray()));
        PAIRS.put(name, made);
        return made;
    }

    private static String pem(String type, byte[] der) {
        return "-----BEGIN "
                + type
                + "-----\n"
                + Base64.getMimeEncoder(64, "\n".getBytes(UTF_8)).encodeToString(der)
                + "\n-----END "
                + type
                + "-----\n";
    }

    /** Just enough DER to take keys apart. */
    record Der(int tag, byte[] encoded, byte[] content) {
        static List<Der> children(byte[] sequence) {
            Der outer = at(sequence, 0);
            ArrayList<Der> out = new ArrayList<>();
            for (int i = 0; i < outer.content.length; ) {
                Der d = at(outer.content, i);
                out.add(d);
                i += d.encoded.length;
            }
            return out;
        }

        static Der at(byte[] b, int at) {
            int length = b[at + 1] & 0xff, start = at + 2;
            if (length > 0x80) {
                int n = length & 0x7f;
                length = 0;
                for (int i = 0; i < n; i++) length = (length << 8) | (b[start++] & 0xff);
            }
            return new Der(
                    b[at] & 0xff,
                    Arrays.copyOfRange(b, at, start + length),
                    Arrays.copyOfRange(b, start, start + length));
        }

        static byte[] encode(int tag, byte[] content) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(tag);
            if (content.length < 0x80) {
                out.write(content.length);
            } else if (content.length < 0x100) {
                out.write(0x81);
                out.write(content.length);
            } else {
                out.write(0x82);
                out.write(content.length >> 8);
                out.write(content.length);
            }
            out.writeBytes(content);
            return out.toByteArray();
        }
    }
}
