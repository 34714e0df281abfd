package dev.sidecarwait.servers;

import java.io.File;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * A real server from Debian's packages (redis-server, PostgreSQL, MariaDB), started on a free loopback port in
 * a temporary directory and stopped afterwards. .ci/run installs the packages; a missing one fails the test.
 */
public final class RealServer implements AutoCloseable {

    public final int port;
    public final Path dir;
    private final List<String> command;
    private final String user;
    private final List<String> stopCommand;
    private Process process;

    private RealServer(int port, Path dir, List<String> command, String user, List<String> stopCommand) {
        this.port = port;
        this.dir = dir;
        this.command = command;
        this.user = user;
        this.stopCommand = stopCommand;
    }

    public static RealServer redis(String... extra) throws IOException {
        int port = freePort();
        Path dir = Files.createTempDirectory("redis");
        List<String> command = new ArrayList<>(List.of(executable("redis-server"), "--port", String.valueOf(port),
                "--bind", "127.0.0.1", "--dir", dir.toString(), "--appendonly", "no", "--save", ""));
        command.addAll(List.of(extra));
        return new RealServer(port, dir, command, null, null);
    }

    /** A fresh cluster (initdb, trust authentication), run as nobody when the tests run as root. */
    public static RealServer postgres() throws IOException, InterruptedException {
        int port = freePort();
        String user = isRoot() ? "nobody" : null;
        Path dir = Files.createTempDirectory("postgres");
        if (user != null) {
            UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
            Files.setOwner(dir, nobody);
        }
        Path data = dir.resolve("data");
        run(asUser(user, List.of(postgresBin("initdb"), "-D", data.toString(), "-A", "trust", "-U", "postgres", "--no-sync")),
                dir.resolve("initdb.log"));
        return new RealServer(port, dir, asUser(user, List.of(postgresBin("postgres"), "-D", data.toString(), "-p",
                String.valueOf(port), "-k", dir.toString(), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off")), user,
                // runuser does not pass SIGTERM on: stop the server itself
                List.of(postgresBin("pg_ctl"), "stop", "-D", data.toString(), "-m", "immediate"));
    }

    /** MariaDB: with the grant tables of a fresh install, or without any (--skip-grant-tables). */
    public static RealServer mariadb(boolean grants) throws IOException, InterruptedException {
        int port = freePort();
        Path dir = Files.createTempDirectory("mariadb");
        Path data = dir.resolve("data");
        Files.createDirectories(data);
        if (grants) {
            run(List.of(executable("mariadb-install-db"), "--no-defaults", "--datadir=" + data, "--user=" + userName(),
                    "--auth-root-authentication-method=normal", "--skip-test-db"), dir.resolve("install.log"));
        }
        List<String> command = new ArrayList<>(List.of(executable("mariadbd"), "--no-defaults", "--datadir=" + data,
                "--port=" + port, "--bind-address=127.0.0.1", "--socket=" + dir.resolve("sock"), "--user=" + userName(),
                "--skip-log-bin", "--innodb-buffer-pool-size=8M", "--log-error=" + dir.resolve("error.log")));
        if (!grants) {
            command.add("--skip-grant-tables");
        }
        return new RealServer(port, dir, command, null, null);
    }

    public RealServer start() throws IOException, InterruptedException {
        process = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!listening(port)) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                throw new IllegalStateException(command.get(0) + " did not start listening on " + port + ": "
                        + log());
            }
            Thread.sleep(50);
        }
        return this;
    }

    public void stop() throws InterruptedException, IOException {
        if (process != null && process.isAlive() && stopCommand != null) {
            runAsServerUser(stopCommand);
        }
        if (process != null && process.isAlive()) {
            process.destroy();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }

    /** Runs a command as the server's user (PostgreSQL's tools, for instance), for its exit code. */
    public int runAsServerUser(List<String> tool) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(asUser(user, tool)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("tools.log").toFile())).start();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException(tool + " did not finish");
        }
        return p.exitValue();
    }

    public String log() {
        try {
            return Files.readString(dir.resolve("server.log"));
        } catch (IOException e) {
            return "(no log: " + e.getMessage() + ")";
        }
    }

    @Override
    public void close() throws Exception {
        stop();
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        }
    }

    public static String postgresBin(String tool) {
        try (Stream<Path> versions = Files.list(Path.of("/usr/lib/postgresql"))) {
            return versions.map(v -> v.resolve("bin").resolve(tool)).filter(Files::isExecutable)
                    .max(Comparator.naturalOrder()).map(Path::toString).orElse(tool);
        } catch (IOException notDebian) {
            return tool;
        }
    }

    public static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return socket.getLocalPort();
        }
    }

    static boolean listening(int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 200);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static String executable(String name) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
            Path candidate = Path.of(dir, name);
            if (Files.isExecutable(candidate)) {
                return candidate.toString();
            }
        }
        for (String dir : List.of("/usr/sbin", "/usr/bin", "/sbin")) {
            if (Files.isExecutable(Path.of(dir, name))) {
                return dir + "/" + name;
            }
        }
        throw new IllegalStateException(name + " is not installed (.ci/run installs redis-server, postgresql and mariadb-server)");
    }

    private static void run(List<String> command, Path log) throws IOException, InterruptedException {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IllegalStateException(String.join(" ", command) + " failed: " + Files.readString(log));
        }
    }

    private static List<String> asUser(String user, List<String> command) {
        if (user == null) {
            return command;
        }
        List<String> wrapped = new ArrayList<>(List.of("runuser", "-u", user, "--"));
        wrapped.addAll(command);
        return wrapped;
    }

    private static boolean isRoot() {
        return userName().equals("root");
    }

    private static String userName() {
        return System.getProperty("user.name");
    }
}
