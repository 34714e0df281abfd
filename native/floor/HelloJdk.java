package floor;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * HelloPicocli, and the JDK a wait and the wrapper cannot do without, once each: a TCP connection (to a refused
 * port), a file read, a signal handler, a command run to its end, a formatted string, a map, a regular expression.
 */
public class HelloJdk {
    public static void main(String[] args) throws IOException, InterruptedException {
        HelloPicocli.run(new String[0]);
        try (SocketChannel channel = SocketChannel.open()) {
            channel.socket().connect(new InetSocketAddress(InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), 1), 100);
            channel.write(ByteBuffer.wrap("GET / HTTP/1.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII)));
        } catch (IOException e) {
            System.out.println(e.getMessage());
        }
        System.out.println(Files.readString(Path.of("/proc/self/status")).length() + " characters of status");
        sun.misc.Signal.handle(new sun.misc.Signal("TERM"), signal -> System.out.println("terminated"));
        Process process = new ProcessBuilder(args.length > 0 ? args : new String[] {"true"}).inheritIO().start();
        System.out.println(String.format("exit %d, HOME %s", process.waitFor(), System.getenv("HOME")));
        Map<String, List<String>> map = new TreeMap<>();
        map.computeIfAbsent("key", key -> new ArrayList<>()).add("value");
        System.out.println(map + " " + Pattern.compile("a+b").matcher("aab").matches());
    }
}
