package dev.sidecarwait.dns;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.Polling;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.TcpSocket;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.PortUnreachableException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.ByteBuffer;
import java.nio.channels.DatagramChannel;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * One server asked about one name, for A and AAAA at once, before a deadline: both queries go out on one connected
 * UDP channel (so an ICMP "port unreachable" from a server that is not up yet ends the exchange at once), and a
 * truncated answer is asked again over TCP, as Go does (net/dnsclient_unix.go, exchange). Replies that do not match
 * a query (id, name, type) are ignored, and the wait for the real one goes on. The channel is read without blocking,
 * looked at again as {@link Polling} says: a DatagramSocket's timed receive brought its socket adaptor, multicast and
 * their VarHandles into the native binary (964 methods and 640 KiB of the CI build, commit 837def5), and a Selector
 * about as many (MEASURED.md, e42584b).
 */
final class Exchange {

    /** What the server said to one query, or, when it said nothing usable, why ({@code trouble}, for a log line). */
    record Answer(DnsMessage.Reply reply, String trouble) {
    }

    private final Clock clock;

    Exchange(Clock clock) {
        this.clock = clock;
    }

    Map<Integer, Answer> ask(InetSocketAddress server, String name, Set<Integer> types, long deadline) {
        Map<Integer, Integer> ids = new LinkedHashMap<>();
        for (int type : types) {
            ids.put(type, ThreadLocalRandom.current().nextInt(1 << 16));
        }
        Map<Integer, Answer> answers = new LinkedHashMap<>();
        long start = clock.nanoTime();
        try (DatagramChannel channel = DatagramChannel.open()) {
            channel.connect(server);
            channel.configureBlocking(false);
            for (Map.Entry<Integer, Integer> query : ids.entrySet()) {
                channel.write(ByteBuffer.wrap(DnsMessage.query(query.getValue(), name, query.getKey())));
            }
            ByteBuffer buffer = ByteBuffer.allocate(DnsMessage.MAX_UDP);
            Polling polling = new Polling(clock);
            while (answers.size() < ids.size() && clock.millisUntil(deadline) > 0) {
                buffer.clear();
                int length = channel.read(buffer);
                if (length <= 0) {
                    polling.pause(deadline);
                    continue;
                }
                polling.reset();
                DnsMessage.Reply reply = DnsMessage.read(buffer.array(), length);
                for (Map.Entry<Integer, Integer> query : ids.entrySet()) {
                    if (reply != null && !answers.containsKey(query.getKey())
                            && DnsMessage.answers(reply, query.getValue(), name, query.getKey())) {
                        answers.put(query.getKey(), reply.truncated()
                                ? overTcp(server, name, query.getKey(), deadline) : new Answer(reply, null));
                    }
                }
            }
        } catch (PortUnreachableException down) {
            return unanswered(ids.keySet(), answers, "nothing answers DNS at " + show(server) + " (port unreachable)");
        } catch (IOException e) {
            return unanswered(ids.keySet(), answers, "cannot reach DNS server " + show(server) + ": "
                    + ProbeFailure.describe(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return unanswered(ids.keySet(), answers, "no answer from DNS server " + show(server) + " within "
                + (clock.nanoTime() - start) / 1_000_000 + " ms");
    }

    /** RFC 7766: a two-byte length, then the message, both ways. */
    private Answer overTcp(InetSocketAddress server, String name, int type, long deadline) {
        int id = ThreadLocalRandom.current().nextInt(1 << 16);
        long start = clock.nanoTime();
        try (Socket socket = TcpSocket.open()) {
            socket.connect(server, millisLeft(deadline));
            byte[] query = DnsMessage.query(id, name, type);
            OutputStream out = socket.getOutputStream();
            out.write(new byte[] {(byte) (query.length >> 8), (byte) query.length});
            out.write(query);
            out.flush();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            socket.setSoTimeout(millisLeft(deadline));
            byte[] message = new byte[in.readUnsignedShort()]; // at most 65535: the length is two bytes
            socket.setSoTimeout(millisLeft(deadline));
            in.readFully(message);
            DnsMessage.Reply reply = DnsMessage.read(message, message.length);
            if (reply == null || !DnsMessage.answers(reply, id, name, type)) {
                return new Answer(null, "DNS server " + show(server) + " answered over TCP with something else");
            }
            return new Answer(reply, null);
        } catch (SocketTimeoutException late) {
            return new Answer(null, "no answer from DNS server " + show(server) + " over TCP within "
                    + (clock.nanoTime() - start) / 1_000_000 + " ms (the UDP answer was truncated)");
        } catch (IOException e) {
            return new Answer(null, "DNS server " + show(server) + " over TCP (the UDP answer was truncated): "
                    + ProbeFailure.describe(e));
        }
    }

    private static Map<Integer, Answer> unanswered(Set<Integer> types, Map<Integer, Answer> answers, String trouble) {
        for (int type : types) {
            answers.putIfAbsent(type, new Answer(null, trouble));
        }
        return answers;
    }

    static String show(InetSocketAddress server) {
        String host = Literals.text(server.getAddress());
        return (server.getAddress() instanceof Inet6Address ? "[" + host + "]" : host) + ":" + server.getPort();
    }

    /** What is left until {@code deadline}, as a socket timeout: at least 1 ms (0 would mean no timeout at all). */
    private int millisLeft(long deadline) {
        return (int) Math.max(1, Math.min(clock.millisUntil(deadline), Integer.MAX_VALUE));
    }
}
