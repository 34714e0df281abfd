package dev.sidecarwait.probe;

import dev.sidecarwait.Version;
import dev.sidecarwait.tls.TlsMode;
import dev.sidecarwait.wire.ProbeFailure;
import dev.sidecarwait.wire.Wire;
import java.nio.charset.StandardCharsets;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * NATS: the server speaks first, an INFO line; then CONNECT and PING, answered PONG. A server that wants
 * credentials counts as up, like Redis's -NOAUTH: when its INFO says auth_required, nothing is sent (anything
 * sent without credentials is logged by nats-server as an authentication error, at every probe), and an
 * authorization error to the CONNECT counts too. Any other -ERR does not, nor does a server in lame duck mode
 * (shutting down: its INFO says "ldm": true).
 */
final class NatsPing implements Handshake {

    /** nats-server's INFO is about 500 bytes; a cluster's connect_urls make it longer. */
    private static final int MAX_LINE = 64 * 1024;
    private static final Pattern VERSION = Pattern.compile("\"version\"\\s*:\\s*\"([^\"]{1,40})\"");
    private static final Pattern LAME_DUCK = Pattern.compile("\"ldm\"\\s*:\\s*true");
    private static final Pattern AUTH_REQUIRED = Pattern.compile("\"auth_required\"\\s*:\\s*true");
    private static final Pattern TLS_REQUIRED = Pattern.compile("\"tls_required\"\\s*:\\s*true");
    private static final byte[] CONNECT_AND_PING = ("CONNECT {\"verbose\":false,\"pedantic\":false,\"name\":\""
            + Handshake.THROWAWAY_USER + "\",\"lang\":\"" + Handshake.THROWAWAY_USER + "\",\"version\":\"" + Version.VERSION
            + "\",\"protocol\":0}\r\nPING\r\n").getBytes(StandardCharsets.US_ASCII);

    @Override
    public String exchange(Wire wire, Target.Server target) throws ProbeFailure {
        return exchange(wire, target, null);
    }

    /**
     * A server whose INFO says tls_required gets TLS next, as NATS clients do (verified: nats:// has no mode to say
     * otherwise but --insecure); the CONNECT and PING go through it. With ?tls=required, an INFO that does not say so
     * is a failure: the plain-text INFO is not to be trusted to ask for TLS.
     */
    @Override
    public String exchange(Wire wire, Target.Server target, Upgrade upgrade) throws ProbeFailure {
        String info = wire.line(MAX_LINE, "answered, but not as NATS");
        if (!info.startsWith("INFO ")) {
            throw new ProbeFailure(info.startsWith("-ERR") ? "NATS refused the connection: " + error(info)
                    : "answered, but not as NATS: '" + ProbeFailure.abbreviate(info) + "'");
        }
        Matcher version = VERSION.matcher(info);
        String server = "NATS" + (version.find() ? " " + version.group(1) : "");
        if (LAME_DUCK.matcher(info).find()) {
            throw new ProbeFailure(server + " is in lame duck mode (shutting down)");
        }
        boolean offered = TLS_REQUIRED.matcher(info).find();
        if (target.tls().tls() && !offered) {
            throw new ProbeFailure(server + " does not say tls_required in its INFO, and tls=required asks for TLS (a plain "
                    + "server, or something between that removed it)");
        }
        if (offered) {
            if (upgrade == null) {
                throw new ProbeFailure(server + " requires TLS, which is not used over a Unix socket");
            }
            wire = upgrade.toTls(TlsMode.VERIFY_FULL);
            server += " over TLS";
        }
        if (AUTH_REQUIRED.matcher(info).find()) {
            return server + ", up; needs credentials (auth_required)";
        }
        wire.write(CONNECT_AND_PING);
        while (true) {
            String reply = wire.line(MAX_LINE, "answered, but not as NATS");
            if (reply.equals("PONG")) {
                return server + ", PONG";
            }
            if (reply.startsWith("-ERR")) {
                String error = error(reply);
                if (error.toLowerCase(java.util.Locale.ROOT).contains("authorization")) {
                    return server + ", up; needs credentials (" + error + ")";
                }
                throw new ProbeFailure(server + " answered with an error: " + error);
            }
            if (!reply.startsWith("INFO ") && !reply.equals("+OK") && !reply.equals("PING")) {
                throw new ProbeFailure("answered, but not as NATS: '" + ProbeFailure.abbreviate(reply) + "'");
            }
        }
    }

    /** "-ERR 'Authorization Violation'" reads "Authorization Violation". */
    private static String error(String line) {
        return ProbeFailure.abbreviate(line.substring(4).strip().replaceAll("^'(.*)'$", "$1"));
    }
}
