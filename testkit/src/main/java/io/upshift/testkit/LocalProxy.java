package io.upshift.testkit;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * An HTTP proxy on 127.0.0.1, as a cluster's egress proxy is to its clients: {@code CONNECT
 * host:port} opens a tunnel (HTTPS through it), an absolute-form request ({@code GET
 * http://host:port/path}) is forwarded. Every target host is this machine, whatever its name: a
 * test can name servers {@code graph.upshift.test} that only the proxy reaches. Each request's
 * first line is recorded, so a test can tell what went through it.
 */
public final class LocalProxy implements AutoCloseable {

    private final ServerSocket socket;
    private final List<String> requests = new CopyOnWriteArrayList<>();

    private LocalProxy(ServerSocket socket) {
        this.socket = socket;
    }

    public static LocalProxy start() throws IOException {
        LocalProxy proxy =
                new LocalProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()));
        Thread accept = new Thread(proxy::accept, "local-proxy");
        accept.setDaemon(true);
        accept.start();
        return proxy;
    }

    /** The proxy's URL, as a Proxy object's httpProxy or httpsProxy names it. */
    public String url() {
        return "http://127.0.0.1:" + socket.getLocalPort();
    }

    /** The first line of every request so far ("CONNECT host:443 HTTP/1.1", "GET http://..."). */
    public List<String> requests() {
        return List.copyOf(requests);
    }

    private void accept() {
        while (!socket.isClosed()) {
            try {
                Socket client = socket.accept();
                Thread t = new Thread(() -> serve(client), "local-proxy-client");
                t.setDaemon(true);
                t.start();
            } catch (IOException closed) {
                return;
            }
        }
    }

    private void serve(Socket client) {
        try (client) {
            InputStream in = client.getInputStream();
            List<String> head = head(in);
            if (head.isEmpty()) return;
            String[] line = head.get(0).split(" ");
            requests.add(head.get(0));
            OutputStream out = client.getOutputStream();
            if (line.length < 3) {
                out.write("HTTP/1.1 400 Bad Request\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                return;
            }
            if (line[0].equals("CONNECT")) {
                int port = Integer.parseInt(line[1].substring(line[1].lastIndexOf(':') + 1));
                try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    out.write(
                            "HTTP/1.1 200 Connection established\r\n\r\n"
                                    .getBytes(StandardCharsets.US_ASCII));
                    out.flush();
                    pipe(in, out, upstream);
                }
                return;
            }
            URI target = URI.create(line[1]);
            int port = target.getPort() > 0 ? target.getPort() : 80;
            try (Socket upstream = new Socket(InetAddress.getLoopbackAddress(), port)) {
                OutputStream up = upstream.getOutputStream();
                StringBuilder request = new StringBuilder();
                String path = target.getRawPath() == null ? "/" : target.getRawPath();
                if (target.getRawQuery() != null) path += "?" + target.getRawQuery();
                request.append(line[0]).append(' ').append(path).append(" HTTP/1.1\r\n");
                for (String h : head.subList(1, head.size())) {
                    String name =
                            h.substring(0, Math.max(0, h.indexOf(':'))).toLowerCase(Locale.ROOT);
                    if (name.equals("connection") || name.startsWith("proxy-")) continue;
                    request.append(h).append("\r\n");
                }
                request.append("Connection: close\r\n\r\n");
                up.write(request.toString().getBytes(StandardCharsets.US_ASCII));
                long length = contentLength(head);
                if (length > 0) up.write(in.readNBytes((int) length));
                up.flush();
                upstream.getInputStream().transferTo(out);
            }
        } catch (IOException | RuntimeException ignored) {
            // the client or the server went away: the request fails as it would through a proxy
        }
    }

    /** Copies both ways until either side closes. */
    private static void pipe(InputStream clientIn, OutputStream clientOut, Socket upstream)
            throws IOException {
        Thread up =
                new Thread(
                        () -> {
                            try {
                                clientIn.transferTo(upstream.getOutputStream());
                                upstream.shutdownOutput();
                            } catch (IOException ignored) {
                                // closed
                            }
                        },
                        "local-proxy-tunnel");
        up.setDaemon(true);
        up.start();
        upstream.getInputStream().transferTo(clientOut);
    }

    private static long contentLength(List<String> head) {
        for (String h : head.subList(1, head.size())) {
            if (h.toLowerCase(Locale.ROOT).startsWith("content-length:"))
                return Long.parseLong(h.substring(h.indexOf(':') + 1).trim());
        }
        return 0;
    }

    /** The request line and headers, up to the blank line. */
    private static List<String> head(InputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int b;
        while ((b = in.read()) != -1) {
            if (b == '\n') {
                String s = line.toString(StandardCharsets.US_ASCII).replaceFirst("\r$", "");
                if (s.isEmpty()) return lines;
                lines.add(s);
                line.reset();
            } else {
                line.write(b);
            }
        }
        return lines;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
