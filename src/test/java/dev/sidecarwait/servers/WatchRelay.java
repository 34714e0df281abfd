package dev.sidecarwait.servers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.WebSocket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * One watch served as the API server serves it over HTTP/1.1 (Kubernetes' "API Concepts", Efficient detection of
 * changes): 200, chunked, one JSON event per line, from the resourceVersion asked for. The events come from fabric8's
 * mock over its WebSocket watch; the changes since that version, which the mock does not replay, are sent first as
 * MODIFIED events from a list, after the WebSocket is open, so that nothing falls between. A deletion before the
 * mock's side of the WebSocket was open is not replayed (the mock keeps no history of them, and drops what it sends
 * before its listener has the socket): a test deletes once the watch is open ({@link KubeApi#openWatches}), which the
 * relay knows by the mock's first message, the ADDED it sends for each object that exists once its side is open. The
 * watch ends at its timeoutSeconds, with the last chunk, as the API server ends it.
 */
public final class WatchRelay {

    private static final ObjectMapper JSON = new ObjectMapper();
    private final KubernetesMockServer mock;
    private final String target;
    private final java.util.concurrent.atomic.AtomicInteger open;

    /**
     * {@code open}: the watches being served, this one counted from the mock's first message (its side is open) to
     * its end; a watch of nothing that exists is never counted.
     */
    WatchRelay(KubernetesMockServer mock, String target, java.util.concurrent.atomic.AtomicInteger open) {
        this.mock = mock;
        this.target = target;
        this.open = open;
    }

    void serve(OutputStream out) throws Exception {
        BlockingQueue<String> events = new LinkedBlockingQueue<>();
        java.util.concurrent.atomic.AtomicBoolean counted = new java.util.concurrent.atomic.AtomicBoolean();
        String query = target.substring(target.indexOf('?') + 1);
        String path = target.substring(0, target.indexOf('?'));
        String selectors = String.join("&", java.util.Arrays.stream(query.split("&"))
                .filter(pair -> pair.startsWith("fieldSelector=") || pair.startsWith("labelSelector=")).toList());
        long since = Long.parseLong(parameter(query, "resourceVersion", "0"));
        long seconds = Long.parseLong(parameter(query, "timeoutSeconds", "60"));
        out.write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n"
                .getBytes(StandardCharsets.ISO_8859_1));
        out.flush(); // at once, as the API server answers a watch: its events follow
        WebSocket socket = HttpClient.newHttpClient().newWebSocketBuilder().buildAsync(URI.create("ws://127.0.0.1:"
                + mock.getPort() + path + "?watch=true" + (selectors.isEmpty() ? "" : "&" + selectors)), new WebSocket.Listener() {
                    private final StringBuilder text = new StringBuilder();

                    @Override
                    public CompletionStage<?> onText(WebSocket webSocket, CharSequence data, boolean last) {
                        text.append(data);
                        if (last) {
                            events.add(text.toString());
                            text.setLength(0);
                            if (counted.compareAndSet(false, true)) {
                                open.incrementAndGet();
                            }
                        }
                        webSocket.request(1);
                        return null;
                    }
                }).get(10, TimeUnit.SECONDS);
        try {
            HttpResponse<String> list = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + mock.getPort() + path + (selectors.isEmpty() ? "" : "?" + selectors))).build(), HttpResponse.BodyHandlers.ofString());
            for (JsonNode item : JSON.readTree(list.body()).path("items")) {
                if (Long.parseLong(item.path("metadata").path("resourceVersion").asText("0")) > since) {
                    chunk(out, "{\"type\":\"MODIFIED\",\"object\":" + JSON.writeValueAsString(item) + "}");
                }
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
            while (System.nanoTime() < end) {
                String event = events.poll(100, TimeUnit.MILLISECONDS);
                if (event != null) {
                    chunk(out, event);
                }
            }
            out.write("0\r\n\r\n".getBytes(StandardCharsets.ISO_8859_1));
            out.flush();
        } finally {
            socket.abort();
            if (!counted.compareAndSet(false, true)) {
                open.decrementAndGet();
            }
        }
    }

    public static void chunk(OutputStream out, String event) throws java.io.IOException {
        byte[] line = (event + "\n").getBytes(StandardCharsets.UTF_8);
        out.write((Integer.toHexString(line.length) + "\r\n").getBytes(StandardCharsets.ISO_8859_1));
        out.write(line);
        out.write("\r\n".getBytes(StandardCharsets.ISO_8859_1));
        out.flush();
    }

    private static String parameter(String query, String name, String otherwise) {
        for (String pair : query.split("&")) {
            if (pair.startsWith(name + "=")) {
                return java.net.URLDecoder.decode(pair.substring(name.length() + 1), StandardCharsets.UTF_8);
            }
        }
        return otherwise;
    }
}
