package dev.sidecarwait.dns;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What /etc/resolv.conf says, read as Go's resolver reads it (net/dnsconfig_unix.go): at most three nameservers,
 * each an IP address; the search list of the last search or domain line; ndots (0 to 15), timeout (at least 1 s),
 * attempts (at least 1) and rotate. Without a nameserver, 127.0.0.1 and ::1, as Go; without the file, the defaults.
 */
public record ResolvConf(List<InetSocketAddress> servers, List<String> search, int ndots, Duration timeout,
                         int attempts, boolean rotate) {

    static final int MAX_SERVERS = 3;
    static final int MAX_NAME = 254;

    public ResolvConf {
        servers = List.copyOf(servers);
        search = List.copyOf(search);
    }

    /** The file at {@code path}; a missing file gives the defaults, as it does for Go. */
    public static ResolvConf read(Path path) throws IOException {
        try {
            return parse(Files.readString(path, StandardCharsets.ISO_8859_1));
        } catch (NoSuchFileException missing) {
            return parse("");
        }
    }

    /** Never throws: lines and options it does not know are passed over, as every resolver does. */
    public static ResolvConf parse(String text) {
        List<InetSocketAddress> servers = new ArrayList<>();
        List<String> search = new ArrayList<>();
        int ndots = 1;
        int timeoutSeconds = 5;
        int attempts = 2;
        boolean rotate = false;
        for (String line : text.split("\n")) {
            if (line.startsWith("#") || line.startsWith(";")) {
                continue;
            }
            String[] fields = line.trim().split("[ \t\r\f]+");
            if (fields.length < 2) {
                continue;
            }
            switch (fields[0]) {
                case "nameserver" -> {
                    InetAddress address = Literals.parse(fields[1]);
                    if (address != null && servers.size() < MAX_SERVERS) {
                        servers.add(new InetSocketAddress(address, 53));
                    }
                }
                case "domain" -> search = List.of(rooted(fields[1]));
                case "search" -> {
                    search = new ArrayList<>();
                    for (int i = 1; i < fields.length; i++) {
                        String domain = rooted(fields[i]);
                        if (!domain.equals(".")) {
                            search.add(domain);
                        }
                    }
                }
                case "options" -> {
                    for (int i = 1; i < fields.length; i++) {
                        String option = fields[i];
                        if (option.startsWith("ndots:")) {
                            ndots = Math.min(15, Math.max(0, number(option.substring(6))));
                        } else if (option.startsWith("timeout:")) {
                            timeoutSeconds = Math.max(1, number(option.substring(8)));
                        } else if (option.startsWith("attempts:")) {
                            attempts = Math.max(1, number(option.substring(9)));
                        } else if (option.equals("rotate")) {
                            rotate = true;
                        }
                    }
                }
                default -> {
                    // sortlist, lookup and the rest: nothing a lookup of A and AAAA records needs
                }
            }
        }
        if (servers.isEmpty()) {
            servers.add(new InetSocketAddress(Literals.parse("127.0.0.1"), 53));
            servers.add(new InetSocketAddress(Literals.parse("::1"), 53));
        }
        return new ResolvConf(servers, search, ndots, Duration.ofSeconds(timeoutSeconds), attempts, rotate);
    }

    /**
     * The fully qualified names to ask for, in order (Go's dnsConfig.nameList): a rooted name alone; else, with at
     * least ndots dots, the name itself first, then the name with each search domain; with fewer, the name last.
     */
    public List<String> names(String host) {
        String name = host.toLowerCase(Locale.ROOT);
        if (name.isEmpty() || name.length() > MAX_NAME || name.length() == MAX_NAME && !name.endsWith(".")) {
            return List.of();
        }
        if (name.endsWith(".")) {
            return List.of(name);
        }
        boolean enoughDots = name.length() - name.replace(".", "").length() >= ndots;
        String rooted = name + ".";
        List<String> names = new ArrayList<>();
        if (enoughDots) {
            names.add(rooted);
        }
        for (String domain : search) {
            if (rooted.length() + domain.length() <= MAX_NAME) {
                names.add(rooted + domain);
            }
        }
        if (!enoughDots) {
            names.add(rooted);
        }
        return names;
    }

    private static String rooted(String domain) {
        String lower = domain.toLowerCase(Locale.ROOT);
        return lower.endsWith(".") ? lower : lower + ".";
    }

    /** Go's dtoi: the leading digits, 0 when there are none, capped well below overflow. */
    private static int number(String text) {
        int value = 0;
        for (int i = 0; i < text.length() && Character.isDigit(text.charAt(i)) && value < 1_000_000; i++) {
            value = value * 10 + (text.charAt(i) - '0');
        }
        return value;
    }
}
