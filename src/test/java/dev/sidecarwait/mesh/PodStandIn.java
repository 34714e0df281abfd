package dev.sidecarwait.mesh;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * What a data plane puts in a pod's network namespace, as a process a test starts inside a namespace of its own
 * (see {@link PodNamespace}). The real proxies cannot run here, so their ports and answers are copied from
 * their sources:
 * <ul>
 * <li>{@code hold:PORT}: accepts every connection at once and never answers, on [::] like ztunnel's in-pod
 * listeners (istio/ztunnel src/config.rs: outbound 15001, inbound plaintext 15006, inbound HBONE 15008) before
 * it has the workload's certificate, and like any port whose answer does not matter here.</li>
 * <li>{@code ready:PORT:PATH}: HTTP/1.1 200 at PATH, 404 elsewhere: pilot-agent's status port 15020 and Envoy's
 * health listener 15021 at /healthz/ready (istio pkg/istio-agent/status/server.go), Linkerd's admin 4191 at /ready.</li>
 * <li>{@code forward:PORT:TARGET:AFTER_MS}: accepts at once, holds each connection until AFTER_MS after the start,
 * then carries it to 127.0.0.1:TARGET: ztunnel once istiod has sent it the workload.</li>
 * <li>{@code after:MS}: binds what follows MS later, as a sidecar that starts after the app does.</li>
 * </ul>
 * Writes the file named first once everything before the first {@code after:} is bound.
 */
public final class PodStandIn {

    private static final long START = System.nanoTime();

    public static void main(String[] args) throws Exception {
        Path bound = Path.of(args[0]);
        List<Thread> threads = new ArrayList<>();
        boolean said = false;
        for (int i = 1; i < args.length; i++) {
            String[] spec = args[i].split(":", 4);
            if (spec[0].equals("after")) {
                said = said || mark(bound);
                Thread.sleep(Long.parseLong(spec[1]));
                continue;
            }
            ServerSocket server = new ServerSocket();
            server.bind(new InetSocketAddress(InetAddress.getByName("::"), Integer.parseInt(spec[1])), 50);
            Thread thread = new Thread(() -> serve(server, spec));
            thread.start();
            threads.add(thread);
        }
        if (!said) {
            mark(bound);
        }
        for (Thread thread : threads) {
            thread.join();
        }
    }

    private static boolean mark(Path bound) throws IOException {
        Files.writeString(bound, "bound\n");
        return true;
    }

    private static void serve(ServerSocket server, String[] spec) {
        List<Socket> held = new ArrayList<>();
        while (true) {
            Socket socket;
            try {
                socket = server.accept();
            } catch (IOException e) {
                return;
            }
            switch (spec[0]) {
                case "hold" -> held.add(socket);
                case "ready" -> new Thread(() -> answer(socket, spec[2])).start();
                case "forward" -> new Thread(() -> forward(socket, Integer.parseInt(spec[2]), Long.parseLong(spec[3]))).start();
                default -> throw new IllegalArgumentException(spec[0]);
            }
        }
    }

    private static void answer(Socket socket, String path) {
        try (socket) {
            StringBuilder request = new StringBuilder();
            InputStream in = socket.getInputStream();
            while (!request.toString().endsWith("\r\n\r\n")) {
                int b = in.read();
                if (b < 0) {
                    return;
                }
                request.append((char) b);
            }
            boolean ready = request.toString().startsWith("GET " + path + " ");
            String body = ready ? "ready\n" : "not found\n";
            socket.getOutputStream().write(("HTTP/1.1 " + (ready ? "200 OK" : "404 Not Found") + "\r\nContent-Length: "
                    + body.length() + "\r\nConnection: close\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
        } catch (IOException gone) {
            // the prober gave up
        }
    }

    private static void forward(Socket socket, int target, long afterMillis) {
        try {
            long wait = afterMillis - (System.nanoTime() - START) / 1_000_000;
            if (wait > 0) {
                Thread.sleep(wait);
            }
            Socket upstream = new Socket("127.0.0.1", target);
            new Thread(() -> pipe(socket, upstream)).start();
            pipe(upstream, socket);
        } catch (IOException | InterruptedException e) {
            close(socket);
        }
    }

    private static void pipe(Socket from, Socket to) {
        try {
            InputStream in = from.getInputStream();
            OutputStream out = to.getOutputStream();
            byte[] buffer = new byte[8192];
            for (int n; (n = in.read(buffer)) > 0; ) {
                out.write(buffer, 0, n);
            }
        } catch (IOException closed) {
            // either side went away
        } finally {
            close(from);
            close(to);
        }
    }

    private static void close(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // already closed
        }
    }
}
