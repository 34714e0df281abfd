package dev.sidecarwait.dns;

import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * /etc/hosts, read as Go's resolver reads it (net/hosts.go): per line, an IP address then its names, a '#' starting
 * a comment; names compared without case and without a trailing dot; a line whose address is not an IP literal is
 * passed over. Read afresh at every lookup: a name added while a wait runs is seen at its next attempt.
 */
public final class HostsFile {

    private HostsFile() {
    }

    /** Every address {@code text} gives {@code host}, in the file's order; empty when none. */
    public static List<InetAddress> lookup(String text, String host) {
        String wanted = bare(host);
        List<InetAddress> addresses = new ArrayList<>();
        for (String line : text.split("\n")) {
            int comment = line.indexOf('#');
            String[] fields = (comment < 0 ? line : line.substring(0, comment)).trim().split("[ \t\r\f]+");
            if (fields.length < 2) {
                continue;
            }
            InetAddress address = Literals.parse(fields[0]);
            if (address == null) {
                continue;
            }
            for (int i = 1; i < fields.length; i++) {
                if (bare(fields[i]).equals(wanted) && !addresses.contains(address)) {
                    addresses.add(address);
                }
            }
        }
        return addresses;
    }

    private static String bare(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower.substring(0, lower.length() - 1) : lower;
    }
}
