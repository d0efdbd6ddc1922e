package io.upshift.releases.image;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Sits in front of a plain-HTTP test server and hangs up on TLS handshakes at once, as real
 * registries answer them, so that jib's HTTPS-then-HTTP failover falls back immediately instead of
 * waiting for a read timeout.
 */
final class PlainHttpFront implements AutoCloseable {

    private final ServerSocket socket;

    PlainHttpFront(int backendPort) throws IOException {
        socket = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        Thread accept =
                new Thread(
                        () -> {
                            while (!socket.isClosed()) {
                                try {
                                    Socket client = socket.accept();
                                    new Thread(() -> serve(client, backendPort)).start();
                                } catch (IOException closed) {
                                    return;
                                }
                            }
                        },
                        "plain-http-front");
        accept.setDaemon(true);
        accept.start();
    }

    int port() {
        return socket.getLocalPort();
    }

    private static void serve(Socket client, int backendPort) {
        try (client;
                Socket backend = new Socket(InetAddress.getLoopbackAddress(), backendPort)) {
            InputStream in = client.getInputStream();
            int first = in.read();
            if (first < 0 || first == 0x16) return; // TLS ClientHello: hang up
            OutputStream toBackend = backend.getOutputStream();
            toBackend.write(first);
            Thread up = new Thread(() -> pump(in, toBackend));
            up.setDaemon(true);
            up.start();
            pump(backend.getInputStream(), client.getOutputStream());
        } catch (IOException ignored) {
            // a connection the backend or client dropped: that is what some tests do on purpose
        }
    }

    private static void pump(InputStream in, OutputStream out) {
        try {
            in.transferTo(out);
            out.flush();
        } catch (IOException ignored) {
            // the other side closed
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
