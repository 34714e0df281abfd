package dev.sidecarwait.dns;

import dev.sidecarwait.SidecarWaitProcess;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A pod's own view of names, made for one test, as the kubelet makes it for a container: a new network namespace
 * (loopback only) and a new mount namespace in which the test's resolv.conf and hosts are bind-mounted over
 * /etc/resolv.conf and /etc/hosts. In it a real DNS server, Debian's dnsmasq, answering as CoreDNS does (its
 * records with TTL 0, NXDOMAIN for every other name, NODATA for a type a name lacks), started, changed and stopped
 * by the test's own lines of shell ({@code setup}), which run in the background while sidecar-wait runs. Its own
 * PID namespace too, so that everything it started ends with it.
 */
final class PodDns {

    /** The pod's search list, as the kubelet writes it for a pod in namespace "shop". */
    static final String RESOLV_CONF = """
            search shop.svc.cluster.local svc.cluster.local cluster.local
            nameserver 127.0.0.1
            options ndots:5
            """;

    private static final String SCRIPT = """
            ip link set lo up || exit 97
            mount --bind "$POD/resolv.conf" /etc/resolv.conf || exit 98
            mount --bind "$POD/hosts" /etc/hosts || exit 98
            # dns ADDRESS [OPTION...]: dnsmasq as CoreDNS answers, from $POD/records (reloaded by kill -HUP)
            dns() {
              local address=$1; shift
              dnsmasq --keep-in-foreground --no-resolv --no-hosts --bind-interfaces --listen-address="$address" \\
                --port=53 --user=root --pid-file= --local-ttl=0 --log-queries --log-facility="$POD/dnsmasq.log" "$@" &
              echo $! >> "$POD/dns.pids"
            }
            # reload: every DNS server reads $POD/records again
            reload() { kill -HUP $(cat "$POD/dns.pids"); }
            served() { dns "$1" --local=/#/ --addn-hosts="$POD/records"; }
            # answers ADDRESS STATUS: waits until the DNS server at ADDRESS answers a question with STATUS (dig's
            # NOERROR, NXDOMAIN, REFUSED, SERVFAIL), asking for a name no test uses; 10 s at most, else the pod fails
            answers() {
              local said=""
              for i in $(seq 100); do
                said=$(dig +time=1 +tries=1 @"$1" ready.invalid A 2>&1)
                echo "$said" | grep -q "status: $2," && return
                sleep 0.1
              done
              echo "pod: the DNS server at $1 did not answer with $2 within 10 s; dig said: $said" >&2; exit 96
            }
            # asked ADDRESS: waits until the DNS server at ADDRESS takes a question (it logs it), for one that answers none
            asked() {
              for i in $(seq 10); do
                dig +time=1 +tries=1 @"$1" asked.invalid A >/dev/null 2>&1
                grep -q "query\\[A\\] asked.invalid from" "$POD/dnsmasq.log" 2>/dev/null && return
                sleep 0.1
              done
              echo "pod: the DNS server at $1 did not take a question within 10 s" >&2; exit 96
            }
            # said TEXT: waits until sidecar-wait's log (its stderr) holds TEXT, for a change that must come after an
            # attempt has seen the state before it, whatever the time a JVM takes to start under load
            said() { until grep -qF -- "$1" "$POD/err.txt" 2>/dev/null; do sleep 0.05; done; }
            # pong PORT: waits until the Redis on PORT answers PING with PONG (redis-cli); 10 s at most
            pong() {
              for i in $(seq 100); do
                [ "$(redis-cli -p "$1" ping 2>/dev/null)" = PONG ] && return
                sleep 0.1
              done
              echo "pod: the Redis on port $1 did not answer PING within 10 s" >&2; exit 96
            }
            eval "$POD_SETUP"
            "$@"
            """; // PID 1 of its own PID namespace: when it exits, the kernel ends everything the test started

    private PodDns() {
    }

    record Result(int exit, String out, String err, String dnsLog) {
    }

    /**
     * Runs sidecar-wait with {@code args} in a pod whose resolv.conf, hosts and DNS records are the given texts;
     * {@code setup} is shell run as the pod starts, and sidecar-wait starts once it is done ({@code served 127.0.0.1;
     * answers 127.0.0.1 NXDOMAIN} starts the DNS server and waits until it answers from its records); what must
     * happen during the wait goes in {@code (said 'what the wait logs first'; ...) &}.
     */
    static Result run(Path dir, String resolvConf, String hosts, String records, String setup, String... args)
            throws Exception {
        Files.writeString(dir.resolve("resolv.conf"), resolvConf);
        Files.writeString(dir.resolve("hosts"), hosts);
        Files.writeString(dir.resolve("records"), records);
        Files.deleteIfExists(dir.resolve("dnsmasq.log"));
        Files.deleteIfExists(dir.resolve("dns.pids"));
        List<String> command = new ArrayList<>(List.of("unshare", "--net", "--mount", "--pid", "--fork", "--mount-proc",
                "bash", "-c", SCRIPT, "pod"));
        command.addAll(SidecarWaitProcess.builder(args).command());
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().keySet().removeIf(name -> name.startsWith("SIDECAR_WAIT_") || name.equals("KUBERNETES_SERVICE_HOST"));
        builder.environment().put("POD", dir.toString());
        builder.environment().put("POD_SETUP", setup);
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = builder.redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        if (!SidecarWaitProcess.exited(process, 90)) {
            throw new AssertionError("did not finish: " + Files.readString(err));
        }
        Path log = dir.resolve("dnsmasq.log");
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8), Files.exists(log) ? Files.readString(log) : "");
    }
}
