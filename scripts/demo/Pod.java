import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The pieces of a simulated pod for scripts/demo.sh, one program with several roles:
 *   config-server PORT                           serves /app-config
 *   proxy STATUS_PORT OUTBOUND_PORT UPSTREAM_PORT DELAY_MS
 *                                                a stand-in sidecar: /healthz/ready answers 503 until it has its
 *                                                "configuration" after DELAY_MS; only then does its outbound
 *                                                listener open and forward to the upstream (before: refused)
 *   app OUTBOUND_PORT                            fetches its config through the proxy as it starts, like the
 *                                                seeds' Spring app fetching logback-spring.xml; fails hard if it can't
 *   tcp-proxy PORT UPSTREAM_PORT                 an outbound listener as Envoy runs it: accepts every connection,
 *                                                and closes it at once when the upstream refuses (else relays)
 *   redis-stand-in PORT                          answers every request with +PONG, where no redis-server is installed
 */
public final class Pod {

    public static void main(String[] args) throws Exception {
        switch (args[0]) {
            case "config-server" -> configServer(Integer.parseInt(args[1]));
            case "proxy" -> proxy(Integer.parseInt(args[1]), Integer.parseInt(args[2]), Integer.parseInt(args[3]),
                    Long.parseLong(args[4]));
            case "app" -> System.exit(app(Integer.parseInt(args[1])));
            case "tcp-proxy" -> tcpProxy(Integer.parseInt(args[1]), Integer.parseInt(args[2]));
            case "redis-stand-in" -> redisStandIn(Integer.parseInt(args[1]));
            default -> throw new IllegalArgumentException(args[0]);
        }
    }

    private static void configServer(int port) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", port), 50);
        server.createContext("/app-config", exchange -> reply(exchange, 200, "greeting=hello from the config server\n"));
        server.start();
        System.out.println("listening on " + port);
    }

    private static void proxy(int statusPort, int outboundPort, int upstreamPort, long delayMillis) throws Exception {
        AtomicBoolean configured = new AtomicBoolean();
        HttpServer status = HttpServer.create(new InetSocketAddress("127.0.0.1", statusPort), 50);
        status.createContext("/healthz/ready", exchange -> {
            boolean ready = configured.get();
            reply(exchange, ready ? 200 : 503, ready ? "LIVE\n" : "waiting for configuration from the control plane\n");
        });
        status.start();
        System.out.println("started; status port " + statusPort + " answers 503 until configured");
        Thread.sleep(delayMillis);
        HttpServer outbound = HttpServer.create(new InetSocketAddress("127.0.0.1", outboundPort), 50);
        outbound.createContext("/", exchange -> forward(exchange, upstreamPort));
        outbound.start();
        System.out.println("received listeners and clusters: ready, forwarding port " + outboundPort + " to " + upstreamPort);
        configured.set(true);
    }

    private static int app(int outboundPort) {
        String url = "http://localhost:" + outboundPort + "/app-config";
        System.out.println("starting; loading configuration from " + url);
        try {
            HttpURLConnection connection = (HttpURLConnection) new URL(url).openConnection();
            connection.setConnectTimeout(2000);
            connection.setReadTimeout(2000);
            try (InputStream in = connection.getInputStream()) {
                String config = new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
                System.out.println("configuration loaded: " + config);
                System.out.println("started cleanly");
                return 0;
            }
        } catch (IOException e) {
            System.out.println("Logging system failed to initialize using configuration from '" + url + "'");
            System.out.println(e + "  -> exiting 1 (the pod would crash-loop)");
            return 1;
        }
    }

    private static void tcpProxy(int port, int upstreamPort) throws IOException {
        try (ServerSocket listener = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
            System.out.println("outbound listener on " + port + " for upstream " + upstreamPort + " (accepts every connection)");
            while (true) {
                Socket client = listener.accept();
                Socket upstream;
                try {
                    upstream = new Socket("127.0.0.1", upstreamPort);
                } catch (IOException refused) {
                    System.out.println("accepted a connection; upstream " + upstreamPort + " refused: closing it");
                    client.close();
                    continue;
                }
                relay(client, upstream);
                relay(upstream, client);
            }
        }
    }

    private static void relay(Socket from, Socket to) {
        Thread thread = new Thread(() -> {
            try (from; to) {
                from.getInputStream().transferTo(to.getOutputStream());
            } catch (IOException closed) {
                // one side hung up: so does the other
            }
        });
        thread.setDaemon(true);
        thread.start();
    }

    private static void redisStandIn(int port) throws IOException {
        try (ServerSocket listener = new ServerSocket(port, 50, InetAddress.getByName("127.0.0.1"))) {
            System.out.println("stand-in Redis on " + port + " (no redis-server installed)");
            while (true) {
                try (Socket client = listener.accept()) {
                    if (client.getInputStream().read(new byte[512]) > 0) {
                        client.getOutputStream().write("+PONG\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                } catch (IOException e) {
                    // next client
                }
            }
        }
    }

    private static void forward(HttpExchange exchange, int upstreamPort) throws IOException {
        HttpURLConnection upstream = (HttpURLConnection) new URL("http://127.0.0.1:" + upstreamPort
                + exchange.getRequestURI()).openConnection();
        try (InputStream in = upstream.getInputStream()) {
            reply(exchange, upstream.getResponseCode(), new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            reply(exchange, 503, "upstream connect error\n");
        }
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }
}
