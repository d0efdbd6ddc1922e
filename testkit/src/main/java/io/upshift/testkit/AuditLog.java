package io.upshift.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import io.upshift.api.json.Mappers;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * kube-apiserver's audit log read as a {@link RequestLog}: with the policy below, the server writes
 * each request's event as it receives it, before it handles it ({@code --audit-log-mode=blocking}),
 * so a request whose answer a client has is in the file. Reading catches up with the file when the
 * log is read; a log rotated by the server is read to its end before the new one.
 */
final class AuditLog {
    /**
     * Metadata of every request, at two stages: as received (what the request log holds) and as
     * answered (its code, for the refusals). The control plane's own traffic (kube-apiserver's
     * loopback, kube-controller-manager and its controllers' ServiceAccounts) is left out: the
     * embedded server does not see it either.
     */
    static final String POLICY =
            "apiVersion: audit.k8s.io/v1\n"
                    + "kind: Policy\n"
                    + "omitStages: [ResponseStarted]\n"
                    + "rules:\n"
                    + "- level: None\n"
                    + "  users: [system:apiserver, system:kube-controller-manager]\n"
                    + "- level: None\n"
                    + "  userGroups: ['system:serviceaccounts:kube-system']\n"
                    + "- level: Metadata\n";

    private final Path path;
    private FileChannel channel;
    private Object fileKey;
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();
    private RequestLog log = new RequestLog();

    /** A request the server refused: its code and message. */
    record Refusal(int code, String message) {}

    private List<Refusal> refusals = new CopyOnWriteArrayList<>();

    AuditLog(Path path) throws IOException {
        this.path = path;
        open();
    }

    private void open() throws IOException {
        channel = FileChannel.open(path, StandardOpenOption.READ);
        fileKey = Files.readAttributes(path, "unix:ino").get("ino");
        partial.reset();
    }

    /**
     * A new request log for a test, holding what the server receives from now on (and the list of
     * refusals to go with it).
     */
    synchronized RequestLog startLog() {
        skipToEnd();
        log = new RequestLog(this::catchUp);
        refusals = new CopyOnWriteArrayList<>();
        return log;
    }

    /** The messages of the requests refused so far with one of {@code codes}, oldest first. */
    synchronized List<String> refusals(int... codes) {
        catchUp();
        return refusals.stream()
                .filter(r -> Arrays.stream(codes).anyMatch(c -> c == r.code()))
                .map(Refusal::message)
                .toList();
    }

    private void skipToEnd() {
        try {
            rotated();
            channel.position(channel.size());
            partial.reset();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Reads what the server wrote since the last time. */
    synchronized void catchUp() {
        try {
            read();
            if (rotated()) read();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the audit log " + path, e);
        }
    }

    /** When the server began a new file: read the old one to its end, then go on in the new. */
    private boolean rotated() throws IOException {
        Object now;
        try {
            now = Files.readAttributes(path, "unix:ino").get("ino");
        } catch (IOException e) {
            return false; // between the rename and the new file
        }
        if (now.equals(fileKey)) return false;
        read();
        channel.close();
        open();
        return true;
    }

    private void read() throws IOException {
        ByteBuffer buffer = ByteBuffer.allocate(1 << 16);
        while (channel.read(buffer) > 0) {
            byte[] bytes = buffer.array();
            int start = 0;
            for (int i = 0; i < buffer.position(); i++) {
                if (bytes[i] != '\n') continue;
                partial.write(bytes, start, i - start);
                line(partial.toString(StandardCharsets.UTF_8));
                partial.reset();
                start = i + 1;
            }
            partial.write(bytes, start, buffer.position() - start);
            buffer.clear();
        }
    }

    private void line(String line) {
        if (line.isBlank()) return;
        JsonNode event;
        try {
            event = Mappers.JSON.readTree(line);
        } catch (IOException e) {
            return; // a line cut by a rotation
        }
        String stage = event.path("stage").asText();
        if (stage.equals("RequestReceived")) {
            log.add(
                    new RequestLog.Request(
                            method(event.path("verb").asText()),
                            event.path("requestURI").asText(),
                            event.path("userAgent").asText(""),
                            event.path("user").path("username").asText("")));
        } else if (stage.equals("ResponseComplete")) {
            JsonNode status = event.path("responseStatus");
            int code = status.path("code").asInt();
            if (code == 401) {
                refusals.add(
                        new Refusal(
                                code,
                                "Unauthorized: "
                                        + method(event.path("verb").asText())
                                        + " "
                                        + event.path("requestURI").asText()));
            } else if (code >= 400) {
                refusals.add(new Refusal(code, status.path("message").asText()));
            }
        }
    }

    /** The HTTP method of an audit event's verb. */
    static String method(String verb) {
        return switch (verb) {
            case "get", "list", "watch" -> "GET";
            case "create" -> "POST";
            case "update" -> "PUT";
            case "patch" -> "PATCH";
            case "delete", "deletecollection" -> "DELETE";
            default -> verb.toUpperCase(Locale.ROOT); // a non-resource request: its method
        };
    }
}
