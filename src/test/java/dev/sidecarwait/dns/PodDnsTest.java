package dev.sidecarwait.dns;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.file.Path;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Names as a pod sees them in its first seconds, against a real DNS server (dnsmasq) in the pod's own network and
 * mount namespaces ({@link PodDns}). Each case is one the JDK's resolver and musl's got wrong (MEASURED.md, build of
 * 92498e8): the JDK keeps a failed lookup 10 s and a good one 30 s, and neither bounds a lookup by the wait's
 * timeout. A wait is given a timeout that only a resolver without a cache, inside its deadline, can meet.
 */
@Tag(SidecarWaitProcess.PROCESS_TAG)
class PodDnsTest {

    private static final String HOSTS = "127.0.0.1 localhost\n::1 localhost ip6-localhost\n";
    private static final String ORDERS_DB = "127.0.0.1 orders-db.shop.svc.cluster.local\n";
    private static final String DNS_UP = "served 127.0.0.1; answers 127.0.0.1 NXDOMAIN";

    @TempDir
    Path pod;

    private PodDns.Result run(String records, String setup, String... args) throws Exception {
        return PodDns.run(pod, PodDns.RESOLV_CONF, HOSTS, records, setup, args);
    }

    @Test
    void aShortServiceNameResolvesThroughTheSearchListWithNdots5() throws Exception {
        PodDns.Result run = run(ORDERS_DB, DNS_UP, "check", "--url", "dns://orders-db");
        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("ready      dns://orders-db  resolved  at 127.0.0.1  "), run.out());
        // ndots:5: the search list first, as Go and glibc ask
        assertTrue(run.dnsLog().contains("query[A] orders-db.shop.svc.cluster.local from 127.0.0.1"), run.dnsLog());
    }

    @Test
    void aDnsServerThatStartsLateIsSeenAtTheNextAttempt() throws Exception {
        PodDns.Result run = run(ORDERS_DB, "(said 'port unreachable'; served 127.0.0.1) &",
                "wait", "--url", "dns://orders-db", "--timeout", "6s", "--verbose");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("dns://orders-db: cannot resolve 'orders-db': nothing answers DNS at 127.0.0.1:53 "
                + "(port unreachable) (asking for orders-db.shop.svc.cluster.local)"), run.err());
    }

    @Test
    void aNameWithoutRecordsIsNoSuchHostUntilItsRecordAppears() throws Exception {
        PodDns.Result run = run("", DNS_UP + "\n(said 'no such host'; echo '" + ORDERS_DB.trim() + "' > \"$POD/records\"; reload) &",
                "wait", "--url", "dns://orders-db", "--timeout", "6s", "--verbose");
        // the record the server loads once the wait has been told there is none
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("dns://orders-db: no such host 'orders-db' (DNS has no address for "
                + "orders-db.shop.svc.cluster.local, orders-db.svc.cluster.local, orders-db.cluster.local, orders-db)"), run.err());
    }

    @Test
    void anAddressThatMovesIsFollowedAtOnce() throws Exception {
        // A dependency's pod replaced: its name moves from a dead address to the live one once the wait has found the
        // dead one refusing (TTL 0).
        PodDns.Result run = run("127.0.0.2 orders-db.shop.svc.cluster.local\n",
                DNS_UP + "\nredis-server --port 16379 --bind 127.0.0.1 --save '' --appendonly no >/dev/null 2>&1 &\n"
                        + "pong 16379\n(said 'connection refused'; echo '" + ORDERS_DB.trim() + "' > \"$POD/records\"; reload) &",
                "wait", "--url", "redis://orders-db:16379", "--timeout", "8s", "--verbose");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("redis://orders-db:16379: connection refused"), run.err());
    }

    @Test
    void aServerThatNeverAnswersStillEndsTheWaitAtItsTimeout() throws Exception {
        // dnsmasq forwarding to an upstream that is not there: it takes every query and answers none
        PodDns.Result run = run(ORDERS_DB, "dns 127.0.0.1 --server=127.0.0.9#53; asked 127.0.0.1",
                "wait", "--url", "dns://orders-db", "--timeout", "3s", "--request-timeout", "1s");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().matches("(?s).*NOT READY before the timeout after 3\\.\\d s.*"), run.err());
        assertTrue(run.err().contains("cannot resolve 'orders-db': no answer from DNS server 127.0.0.1:53 within "), run.err());
    }

    @Test
    void aServerThatRefusesIsSaidSo() throws Exception {
        // dnsmasq with no data of its own and no upstream answers REFUSED
        PodDns.Result run = run(ORDERS_DB, "dns 127.0.0.1; answers 127.0.0.1 REFUSED",
                "wait", "--url", "dns://orders-db", "--timeout", "1s");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("dns://orders-db: cannot resolve 'orders-db': DNS server 127.0.0.1:53 refused "
                + "(REFUSED) to answer for orders-db.shop.svc.cluster.local"), run.err());
    }

    @Test
    void aServerThatFailsIsSaidSo() throws Exception {
        // A validating dnsmasq in front of one that serves unsigned records: every answer is bogus, so SERVFAIL.
        PodDns.Result run = run(ORDERS_DB, "served 127.0.0.2; answers 127.0.0.2 NXDOMAIN\n"
                        + "dns 127.0.0.1 --server=127.0.0.2#53 --dnssec --dnssec-check-unsigned "
                        + "--trust-anchor=.,20326,8,2,E06D44B80B8F1D39A95C0B0D7C65D08458E880409BBC683457104237C7F8EC8D\n"
                        + "answers 127.0.0.1 SERVFAIL",
                "wait", "--url", "dns://orders-db", "--timeout", "1s");
        assertEquals(1, run.exit(), run.err());
        assertTrue(run.err().contains("dns://orders-db: cannot resolve 'orders-db': DNS server 127.0.0.1:53 failed "
                + "(SERVFAIL) for orders-db.shop.svc.cluster.local"), run.err());
    }

    @Test
    void anAnswerTooLongForUdpIsAskedAgainOverTcp() throws Exception {
        // 100 A records: 1,600 bytes of answers, more than the 1,232 bytes a UDP answer may carry
        String records = IntStream.rangeClosed(1, 100).mapToObj(i -> "127.0.1." + i + " big.shop.svc.cluster.local\n")
                .collect(Collectors.joining());
        PodDns.Result run = run(records, DNS_UP, "check", "--url", "dns://big", "--output", "json");
        assertEquals(0, run.exit(), run.out() + run.err());
        // all of them: a UDP answer has room for about 75 (the server's order, not ours)
        assertEquals(100, run.out().split("\"127\\.0\\.1\\.", -1).length - 1, run.out());
        assertTrue(run.out().contains("\"127.0.1.1\"") && run.out().contains("\"127.0.1.100\""), run.out());
    }

    @Test
    void anIpv6OnlyPodAsksItsDnsServerOverIpv6() throws Exception {
        String resolvConf = PodDns.RESOLV_CONF.replace("nameserver 127.0.0.1", "nameserver fd00::10");
        PodDns.Result run = PodDns.run(pod, resolvConf, "::1 localhost\n", "fd00::12 orders-db.shop.svc.cluster.local\n",
                "ip addr del 127.0.0.1/8 dev lo; ip addr add fd00::10/128 dev lo nodad\n" + "served fd00::10; answers fd00::10 NXDOMAIN",
                "check", "--url", "dns://orders-db");
        assertEquals(0, run.exit(), run.out() + run.err());
        assertTrue(run.out().contains("resolved  at fd00::12  "), run.out());
        assertTrue(run.dnsLog().contains("query[AAAA] orders-db.shop.svc.cluster.local from fd00::10"), run.dnsLog());
    }

    @Test
    void aNameAddedToEtcHostsDuringTheWaitIsSeenWithNoDnsServerUp() throws Exception {
        PodDns.Result run = run("", "(said 'port unreachable'; echo '127.0.0.1 orders-db' >> /etc/hosts) &",
                "wait", "--url", "dns://orders-db", "--timeout", "6s", "--verbose");
        assertEquals(0, run.exit(), run.err());
        assertTrue(run.err().contains("nothing answers DNS at 127.0.0.1:53 (port unreachable)"), run.err());
    }
}
