package dev.sidecarwait.dns;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.ProbeFailure;
import java.io.IOException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;

/**
 * Names to addresses, the same code on the JVM and in the native binary, following Go's resolver for static binaries
 * (what pilot-agent uses; net/dnsclient_unix.go, dnsconfig_unix.go, hosts.go): IP literals and localhost as they
 * are; then /etc/hosts; then, for each name of resolv.conf's search list, its nameservers in turn (rotated with
 * rotate), each attempt for A and AAAA at once. No such name (NXDOMAIN) goes on to the next name of the list, as does
 * no record of a type (NODATA); a server that fails (SERVFAIL), refuses (REFUSED), says nothing or cannot be reached
 * makes the next server be asked. Nothing is cached: every lookup asks afresh, and every lookup ends by its deadline.
 */
public final class Resolver {

    private static final byte[] IPV4_LOOPBACK = {127, 0, 0, 1};
    private static final byte[] IPV6_LOOPBACK = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};

    private final Clock clock;
    private final Path hosts;
    private final Path resolvConf;
    private final Exchange exchange;
    private final AtomicInteger rotation = new AtomicInteger();

    public Resolver(Clock clock, Path hosts, Path resolvConf) {
        this.clock = clock;
        this.hosts = hosts;
        this.resolvConf = resolvConf;
        this.exchange = new Exchange(clock);
    }

    /** The pod's own view: /etc/hosts and /etc/resolv.conf. */
    public static Resolver ofSystem(Clock clock) {
        return new Resolver(clock, Path.of("/etc/hosts"), Path.of("/etc/resolv.conf"));
    }

    /**
     * The addresses of {@code host}, IPv4 first, asked for before {@code deadline} (nanoTime). The failure says what
     * DNS said: no such name (and the names tried), or which server failed, refused or did not answer within how long.
     */
    public List<InetAddress> resolve(String host, long deadline) throws ProbeFailure {
        InetAddress literal = Literals.parse(host);
        if (literal != null) {
            return List.of(literal);
        }
        if (host.equalsIgnoreCase("localhost") || host.equalsIgnoreCase("localhost.")) {
            // Both loopbacks, whatever /etc/hosts says: a proxy may listen on 127.0.0.1 or on ::1.
            return loopbacks(host);
        }
        List<InetAddress> listed = HostsFile.lookup(readOrEmpty(hosts), host);
        if (!listed.isEmpty()) {
            return listed;
        }
        ResolvConf conf;
        try {
            conf = ResolvConf.read(resolvConf);
        } catch (IOException e) {
            throw new ProbeFailure("cannot resolve '" + host + "': cannot read " + resolvConf + ": " + ProbeFailure.describe(e));
        }
        List<String> names = conf.names(host).stream().filter(DnsMessage::askable).toList();
        if (names.isEmpty()) {
            throw new ProbeFailure("'" + host + "' is not a host name");
        }
        String trouble = null;
        for (String name : names) {
            Lookup lookup = lookUp(conf, name, deadline);
            if (!lookup.addresses.isEmpty()) {
                return lookup.addresses;
            }
            if (trouble == null) {
                trouble = lookup.trouble;
            }
        }
        if (trouble != null) {
            throw new ProbeFailure("cannot resolve '" + host + "': " + trouble);
        }
        throw new ProbeFailure("no such host '" + host + "' (DNS has no address for " + names.stream()
                .map(Resolver::shown).collect(Collectors.joining(", ")) + ")");
    }

    /** One name's addresses, or the first trouble met while asking for them (null: the servers said there are none). */
    private record Lookup(List<InetAddress> addresses, String trouble) {
    }

    private Lookup lookUp(ResolvConf conf, String name, long deadline) {
        Set<Integer> pending = new LinkedHashSet<>(List.of(DnsMessage.A, DnsMessage.AAAA));
        List<InetAddress> found = new ArrayList<>();
        String trouble = null;
        List<InetSocketAddress> servers = conf.servers();
        int offset = conf.rotate() ? Math.floorMod(rotation.getAndIncrement(), servers.size()) : 0;
        for (int attempt = 0; attempt < conf.attempts() && !pending.isEmpty(); attempt++) {
            for (int i = 0; i < servers.size() && !pending.isEmpty(); i++) {
                long now = clock.nanoTime();
                if (now >= deadline) {
                    return new Lookup(List.copyOf(found), trouble != null ? trouble : "no time left to ask DNS for " + shown(name));
                }
                InetSocketAddress server = servers.get((offset + i) % servers.size());
                long until = Math.min(deadline, now + conf.timeout().toNanos());
                for (Map.Entry<Integer, Exchange.Answer> answer : exchange.ask(server, name, pending, until).entrySet()) {
                    String problem = settle(answer.getKey(), answer.getValue(), server, name, pending, found);
                    if (problem != null && trouble == null) {
                        trouble = problem;
                    }
                }
            }
        }
        found.sort((a, b) -> Boolean.compare(!(a instanceof Inet4Address), !(b instanceof Inet4Address)));
        return new Lookup(List.copyOf(found), trouble);
    }

    /**
     * What one answer means (Go's checkHeader and skipToAnswer): addresses or none (the type is settled), no such
     * name (both are), or trouble (returned, and the type stays to be asked of the next server).
     */
    private static String settle(int type, Exchange.Answer answer, InetSocketAddress server, String name,
                                 Set<Integer> pending, List<InetAddress> found) {
        if (answer.trouble() != null) {
            return answer.trouble() + " (asking for " + shown(name) + ")";
        }
        DnsMessage.Reply reply = answer.reply();
        String from = "DNS server " + Exchange.show(server);
        switch (reply.rcode()) {
            case DnsMessage.NXDOMAIN -> {
                pending.clear(); // the name does not exist: no other server is asked
                return null;
            }
            case DnsMessage.NOERROR -> {
                if (!reply.authoritative() && !reply.recursionAvailable() && reply.answerCount() == 0
                        && reply.additionalCount() == 0) {
                    return from + " gave neither an answer nor a referral for " + shown(name);
                }
                found.addAll(reply.addresses());
                pending.remove(type);
                return null;
            }
            case DnsMessage.SERVFAIL -> {
                return from + " failed (SERVFAIL) for " + shown(name);
            }
            case DnsMessage.REFUSED -> {
                return from + " refused (REFUSED) to answer for " + shown(name);
            }
            default -> {
                return from + " answered rcode " + reply.rcode() + " for " + shown(name);
            }
        }
    }

    private static String shown(String rootedName) {
        return rootedName.substring(0, rootedName.length() - 1);
    }

    private static String readOrEmpty(Path file) {
        try {
            return Files.readString(file, StandardCharsets.ISO_8859_1);
        } catch (IOException unreadable) {
            return ""; // as Go: no hosts file, no static names
        }
    }

    private static List<InetAddress> loopbacks(String host) {
        try {
            return List.of(InetAddress.getByAddress(host, IPV4_LOOPBACK), InetAddress.getByAddress(host, IPV6_LOOPBACK));
        } catch (UnknownHostException impossible) {
            throw new IllegalStateException(impossible);
        }
    }
}
