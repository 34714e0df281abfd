package dev.sidecarwait.dns;

import com.code_intelligence.jazzer.junit.FuzzTest;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The resolver's readers of outside input, fed hostile bytes: a DNS server's answer, resolv.conf and /etc/hosts. Each
 * returns its result (a reply or null for an answer; a configuration; addresses) and throws nothing else, whatever
 * it is given. Seeds: dnsmasq 2.90's real answers (an A and an AAAA record, NXDOMAIN, NODATA, REFUSED, SERVFAIL, a
 * truncated UDP answer and the same over TCP) and the files the kubelet writes, in
 * src/test/resources/.../DnsReadersFuzzTestInputs/METHOD/.
 */
class DnsReadersFuzzTest {

    @FuzzTest(maxDuration = "15s")
    void dnsAnswer(byte[] answer) {
        DnsMessage.Reply reply = DnsMessage.read(answer, answer.length);
        if (reply == null) {
            return;
        }
        if (reply.addresses().size() > reply.answerCount()) {
            throw new AssertionError("more addresses than answer records: " + reply);
        }
        if (reply.name().length() > 256 || !reply.name().endsWith(".")) {
            throw new AssertionError("a name that is not one: " + reply.name());
        }
        DnsMessage.answers(reply, 0x1234, "orders-db.shop.svc.cluster.local.", DnsMessage.A);
    }

    @FuzzTest(maxDuration = "15s")
    void resolvConf(byte[] file) {
        ResolvConf conf = ResolvConf.parse(new String(file, StandardCharsets.ISO_8859_1));
        if (conf.servers().isEmpty() || conf.servers().size() > ResolvConf.MAX_SERVERS || conf.attempts() < 1
                || conf.timeout().isNegative() || conf.timeout().isZero() || conf.ndots() < 0 || conf.ndots() > 15) {
            throw new AssertionError("out of Go's bounds: " + conf);
        }
        List<String> names = conf.names("orders-db");
        if (names.size() > conf.search().size() + 1 || names.stream().anyMatch(name -> name.length() > ResolvConf.MAX_NAME)) {
            throw new AssertionError("names beyond the search list or too long: " + names);
        }
    }

    @FuzzTest(maxDuration = "15s")
    void hostsFile(byte[] file) {
        HostsFile.lookup(new String(file, StandardCharsets.ISO_8859_1), "orders-db");
    }
}
