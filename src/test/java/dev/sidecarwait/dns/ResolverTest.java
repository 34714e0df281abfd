package dev.sidecarwait.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.sidecarwait.Clock;
import dev.sidecarwait.wire.ProbeFailure;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The resolver with its own hosts file and resolv.conf, paths passed in: what needs no DNS server. */
class ResolverTest {

    @TempDir
    Path dir;

    private long soon() {
        return System.nanoTime() + 2_000_000_000L;
    }

    @Test
    void literalsAndLocalhostAsTheyAreThenTheHostsFileReadAfreshAtEveryLookup() throws Exception {
        Path hosts = Files.writeString(dir.resolve("hosts"), "10.1.2.3 orders-db\n");
        Resolver resolver = new Resolver(Clock.SYSTEM, hosts, dir.resolve("no-resolv.conf"));
        assertEquals(List.of(InetAddress.getByName("10.9.8.7")), resolver.resolve("10.9.8.7", soon()));
        assertEquals(List.of(InetAddress.getByName("fd00::12")), resolver.resolve("fd00::12", soon()));
        assertEquals(List.of(InetAddress.getByName("127.0.0.1"), InetAddress.getByName("::1")),
                resolver.resolve("localhost", soon()), "both loopbacks, whatever the hosts file says");
        assertEquals(List.of(InetAddress.getByName("10.1.2.3")), resolver.resolve("orders-db", soon()));
        Files.writeString(hosts, "10.1.2.4 orders-db\n");
        assertEquals(List.of(InetAddress.getByName("10.1.2.4")), resolver.resolve("ORDERS-DB.", soon()), "no cache");
    }

    @Test
    void aNameThatCannotBeAskedIsSaidSoWithoutAsking() throws Exception {
        Resolver resolver = new Resolver(Clock.SYSTEM, dir.resolve("no-hosts"), dir.resolve("no-resolv.conf"));
        ProbeFailure failure = assertThrows(ProbeFailure.class, () -> resolver.resolve("a..b", soon()));
        assertEquals("'a..b' is not a host name", failure.getMessage());
        ProbeFailure late = assertThrows(ProbeFailure.class, () -> resolver.resolve("orders-db", System.nanoTime() - 1));
        assertEquals("cannot resolve 'orders-db': no time left to ask DNS for orders-db", late.getMessage());
    }
}
