package dev.sidecarwait.servers;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.net.HttpURLConnection;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.UserPrincipal;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.common.Uuid;

/**
 * A real server, started on a free loopback port in a temporary directory and stopped afterwards: from Debian's
 * packages (redis-server, PostgreSQL, MariaDB, RabbitMQ, NATS), which scripts/test.sh installs (a missing one fails the
 * test), or Kafka's broker from its Maven Central jars on the test class path. {@link #start()} returns once the
 * server is ready by its own account, asked with its own client, never at the first connect: a port that listens
 * belongs to a server that may still be starting up (PostgreSQL's "the database system is starting up", Redis
 * loading its data set, RabbitMQ booting its plugins, a Kafka broker not yet registered with its controller).
 */
public final class RealServer implements AutoCloseable {

    /** How long a start may take, under load, before the test fails naming the server. */
    private static final long START_SECONDS = 90;

    /** Asks the server whether it is ready: null when it is, else what it answered, for the failure message. */
    @FunctionalInterface
    public interface Readiness {
        String notReady(RealServer server) throws Exception;
    }

    public final int port;
    public final Path dir;
    private final String name;
    private final List<String> command;
    private final String user;
    private final List<String> stopCommand;
    private final Map<String, String> env;
    private final Readiness readiness;
    private final Runnable afterStop;
    private Process process;

    private RealServer(String name, int port, Path dir, List<String> command, String user, List<String> stopCommand,
                       Map<String, String> env, Readiness readiness, Runnable afterStop) {
        this.name = name;
        this.port = port;
        this.dir = dir;
        this.command = command;
        this.user = user;
        this.stopCommand = stopCommand;
        this.env = env;
        this.readiness = readiness;
        this.afterStop = afterStop;
    }

    private static RealServer of(String name, int port, Path dir, List<String> command, Readiness readiness) {
        return new RealServer(name, port, dir, command, null, null, Map.of(), readiness, () -> { });
    }

    public static RealServer redis(String... extra) throws IOException {
        int port = freePort();
        Path dir = Files.createTempDirectory("redis");
        List<String> command = new ArrayList<>(List.of(executable("redis-server"), "--port", String.valueOf(port),
                "--bind", "127.0.0.1", "--dir", dir.toString(), "--appendonly", "no", "--save", ""));
        command.addAll(List.of(extra));
        return of("redis-server", port, dir, command, RealServer::redisAnswersPing);
    }

    /** Ready: redis-cli's PING is answered with PONG, or with NOAUTH by a server that wants a password. */
    public static String redisAnswersPing(RealServer redis) throws IOException, InterruptedException {
        String answer = client(List.of("redis-cli", "-h", "127.0.0.1", "-p", String.valueOf(redis.port), "ping"));
        return answer.startsWith("PONG") || answer.startsWith("NOAUTH") ? null : answer;
    }

    /** Up and answering, if not yet ready: PING is answered, with PONG or with LOADING while it loads its data set. */
    public static String redisAnswers(RealServer redis) throws IOException, InterruptedException {
        String answer = client(List.of("redis-cli", "-h", "127.0.0.1", "-p", String.valueOf(redis.port), "ping"));
        return answer.startsWith("PONG") || answer.startsWith("LOADING") ? null : answer;
    }

    /**
     * Redis serving TLS only (its tls-port; port 0 closes the plain one) with this certificate; clients' certificates
     * are asked for only when {@code clientCa} is given.
     */
    public static RealServer redisTls(TestCa.Issued server, Path clientCa) throws IOException {
        int port = freePort();
        Path dir = Files.createTempDirectory("redis-tls");
        List<String> command = new ArrayList<>(List.of(executable("redis-server"), "--port", "0", "--tls-port",
                String.valueOf(port), "--bind", "127.0.0.1", "--dir", dir.toString(), "--appendonly", "no", "--save", "",
                "--tls-cert-file", server.cert().toString(), "--tls-key-file", server.key().toString()));
        command.addAll(clientCa == null ? List.of("--tls-auth-clients", "no")
                : List.of("--tls-ca-cert-file", clientCa.toString(), "--tls-auth-clients", "yes"));
        return of("redis-server (TLS)", port, dir, command, RealServer::listens);
    }

    /**
     * nginx serving HTTPS on loopback: 200 "ready" at every path, TLS limited to {@code protocols} (e.g. "TLSv1.2"),
     * and a client certificate required when {@code clientCa} is given.
     */
    public static RealServer nginxTls(TestCa.Issued server, String protocols, Path clientCa) throws IOException {
        return nginxTls(server, protocols, clientCa, "");
    }

    /** As {@link #nginxTls(TestCa.Issued, String, Path)}, with a line of nginx's server block more (a location). */
    public static RealServer nginxTls(TestCa.Issued server, String protocols, Path clientCa, String line) throws IOException {
        return nginx("ssl", "ssl_certificate " + server.cert() + ";", "ssl_certificate_key " + server.key() + ";",
                "ssl_protocols " + protocols + ";",
                clientCa == null ? "" : "ssl_client_certificate " + clientCa + "; ssl_verify_client on;", line);
    }

    /** nginx serving plain HTTP on loopback: 200 "ready" at every path. */
    public static RealServer nginx() throws IOException {
        return nginx("");
    }

    private static RealServer nginx(String listenFlag, String... serverLines) throws IOException {
        int port = freePort();
        Path dir = Files.createTempDirectory("nginx");
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        List<String> conf = new ArrayList<>(List.of(
                "daemon off;", "worker_processes 1;", "pid " + dir.resolve("nginx.pid") + ";",
                "error_log " + dir.resolve("error.log") + " info;", "user root root;", "events { worker_connections 64; }",
                "http {", "  access_log off;", "  client_body_temp_path " + tmp + ";", "  proxy_temp_path " + tmp + ";",
                "  fastcgi_temp_path " + tmp + ";", "  uwsgi_temp_path " + tmp + ";", "  scgi_temp_path " + tmp + ";",
                "  server {", "    listen 127.0.0.1:" + port + " " + listenFlag + ";"));
        for (String line : serverLines) {
            conf.add("    " + line);
        }
        conf.addAll(List.of("    location / { return 200 \"ready\\n\"; }", "  }", "}", ""));
        Path file = Files.writeString(dir.resolve("nginx.conf"), String.join("\n", conf));
        return of("nginx", port, dir, List.of(executable("nginx"), "-p", dir.toString(), "-c", file.toString(), "-e",
                dir.resolve("error.log").toString()), RealServer::listens);
    }

    /** NATS requiring TLS of its clients (its INFO says tls_required), with this certificate. */
    public static RealServer natsTls(TestCa.Issued server) throws IOException {
        return nats("--tls", "--tlscert", server.cert().toString(), "--tlskey", server.key().toString());
    }

    /** Ready enough for a server that takes no plain client: its port accepts a connection. */
    private static String listens(RealServer server) {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", server.port), 1000);
            return null;
        } catch (IOException notYet) {
            return "connect: " + notYet.getMessage();
        }
    }

    /** A fresh cluster (initdb, trust authentication), run as nobody when the tests run as root. */
    public static RealServer postgres() throws IOException, InterruptedException {
        return postgres(null);
    }

    /**
     * As {@link #postgres()}, with ssl = on and this certificate when {@code tls} is given (its key copied for the
     * server's user, mode 0600, as PostgreSQL demands).
     */
    public static RealServer postgres(TestCa.Issued tls) throws IOException, InterruptedException {
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
        List<String> server = new ArrayList<>(List.of(postgresBin("postgres"), "-D", data.toString(),
                "-p", String.valueOf(port), "-k", dir.toString(), "-c", "listen_addresses=127.0.0.1", "-c", "fsync=off"));
        if (tls != null) {
            Path cert = Files.copy(tls.cert(), dir.resolve("server.crt"));
            Path key = Files.copy(tls.key(), dir.resolve("server.key"));
            Files.setPosixFilePermissions(key, java.nio.file.attribute.PosixFilePermissions.fromString("rw-------"));
            if (user != null) {
                UserPrincipal nobody = dir.getFileSystem().getUserPrincipalLookupService().lookupPrincipalByName(user);
                Files.setOwner(cert, nobody);
                Files.setOwner(key, nobody);
            }
            server.addAll(List.of("-c", "ssl=on", "-c", "ssl_cert_file=" + cert, "-c", "ssl_key_file=" + key));
        }
        return new RealServer("postgres", port, dir, asUser(user, server), user,
                // runuser does not pass SIGTERM on: stop the server itself
                List.of(postgresBin("pg_ctl"), "stop", "-D", data.toString(), "-m", "immediate"), Map.of(),
                // ready: pg_isready says "accepting connections" (exit 0), not "rejecting" (1, starting up) or 2
                started -> {
                    String answer = client(List.of(postgresBin("pg_isready"), "-h", "127.0.0.1", "-p",
                            String.valueOf(started.port), "-t", "2"));
                    return answer.contains("accepting connections") ? null : answer;
                }, () -> { });
    }

    /** MariaDB: with the grant tables of a fresh install, or without any (--skip-grant-tables). */
    public static RealServer mariadb(boolean grants) throws IOException, InterruptedException {
        return mariadb(grants, null);
    }

    /** As {@link #mariadb(boolean)}, offering TLS with this certificate when {@code tls} is given. */
    public static RealServer mariadb(boolean grants, TestCa.Issued tls) throws IOException, InterruptedException {
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
        if (tls != null) {
            command.addAll(List.of("--ssl-cert=" + tls.cert(), "--ssl-key=" + tls.key()));
        }
        // ready: mariadb-admin ping says "mysqld is alive" (also when the login is refused: the server is up)
        return of("mariadbd", port, dir, command, server -> {
            String answer = client(List.of(executable("mariadb-admin"), "--no-defaults", "--protocol=tcp", "-h",
                    "127.0.0.1", "-P", String.valueOf(server.port), "-u", "root", "--connect-timeout=2", "ping"));
            return answer.contains("is alive") ? null : answer;
        });
    }

    /**
     * NATS (nats-server) with the given extra arguments, e.g. a user and password or a connection limit. Ready: its
     * monitoring port's /healthz answers 200 {"status":"ok"} (nats-server's own health check; it takes no client
     * connection, so a server limited to one has it free).
     */
    public static RealServer nats(String... extra) throws IOException {
        int[] ports = freePorts(2);
        int port = ports[0];
        int monitor = ports[1];
        Path dir = Files.createTempDirectory("nats");
        List<String> command = new ArrayList<>(List.of(executable("nats-server"), "-a", "127.0.0.1", "-p",
                String.valueOf(port), "-m", String.valueOf(monitor)));
        command.addAll(List.of(extra));
        return of("nats-server", port, dir, command, server -> {
            HttpURLConnection health = (HttpURLConnection) new URL("http://127.0.0.1:" + monitor + "/healthz").openConnection();
            health.setConnectTimeout(2000);
            health.setReadTimeout(2000);
            try {
                String body = new String(health.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                return health.getResponseCode() == 200 && body.contains("\"ok\"") ? null : health.getResponseCode() + " " + body;
            } catch (IOException notYet) {
                return "/healthz: " + notYet;
            } finally {
                health.disconnect();
            }
        });
    }

    /**
     * A RabbitMQ node of its own (name, ports, data, log and Erlang cookie under a temporary directory), run in
     * the foreground by Debian's rabbitmq-server script, which passes SIGTERM on to the broker.
     */
    public static RealServer rabbitmq() throws IOException {
        return rabbitmq(null);
    }

    /**
     * As {@link #rabbitmq()}, with AMQPS beside AMQP when {@code tls} is given (rabbitmq.conf's listeners.ssl): then
     * {@link #port} is the TLS listener's.
     */
    public static RealServer rabbitmq(TestCa.Issued tls) throws IOException {
        int[] ports = freePorts(4);
        int port = ports[0];
        Path dir = Files.createTempDirectory("rabbitmq");
        Map<String, String> env = new LinkedHashMap<>();
        env.put("HOME", dir.toString());
        env.put("RABBITMQ_NODENAME", "sidecar-wait-" + port + "@localhost");
        env.put("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1");
        env.put("RABBITMQ_NODE_PORT", String.valueOf(port));
        env.put("RABBITMQ_DIST_PORT", String.valueOf(ports[1]));
        env.put("RABBITMQ_MNESIA_BASE", dir.resolve("mnesia").toString());
        env.put("RABBITMQ_LOG_BASE", dir.resolve("log").toString());
        env.put("RABBITMQ_LOGS", "-");
        env.put("RABBITMQ_ENABLED_PLUGINS_FILE", dir.resolve("enabled_plugins").toString());
        env.put("RABBITMQ_CONFIG_FILE", dir.resolve("rabbitmq").toString());
        env.put("RABBITMQ_ADVANCED_CONFIG_FILE", dir.resolve("advanced.config").toString());
        // Erlang's port mapper (epmd), which the node starts as a daemon that outlives it: on loopback, on a port of
        // this node's own, and stopped with it (by default it stays listening on 0.0.0.0:4369 after the tests).
        String epmdPort = String.valueOf(ports[2]);
        env.put("ERL_EPMD_ADDRESS", "127.0.0.1");
        env.put("ERL_EPMD_PORT", epmdPort);
        Path script = Path.of("/usr/lib/rabbitmq/bin/rabbitmq-server");
        if (!Files.isExecutable(script)) {
            throw new IllegalStateException(script + " is not installed (scripts/test.sh installs rabbitmq-server)");
        }
        Map<String, String> fixed = Map.copyOf(env);
        // ready: rabbitmqctl await_startup returns once the node has booted (plugins, listeners), exit 0
        Readiness booted = server -> {
            // the tool beside the server script: /usr/sbin's wrapper runs it as user rabbitmq with its own HOME and cookie
            String answer = client(List.of(script.resolveSibling("rabbitmqctl").toString(), "-n", fixed.get("RABBITMQ_NODENAME"),
                    "await_startup", "--timeout", "5"), fixed);
            return answer.contains("exit code 0") ? null : answer;
        };
        Runnable stopEpmd = () -> {
            try {
                client(List.of(executable("epmd"), "-port", epmdPort, "-kill"), fixed);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException("could not stop epmd on port " + epmdPort, e);
            }
        };
        if (tls != null) {
            Files.writeString(dir.resolve("rabbitmq.conf"), String.join("\n", "listeners.ssl.default = " + ports[3],
                    "ssl_options.certfile = " + tls.cert(), "ssl_options.keyfile = " + tls.key(), "ssl_options.verify = verify_none",
                    "ssl_options.fail_if_no_peer_cert = false") + "\n");
        }
        return new RealServer("rabbitmq-server", tls == null ? port : ports[3], dir, List.of(script.toString()), null, null,
                fixed, booted, stopEpmd);
    }

    /**
     * A Kafka broker in KRaft mode (broker and controller in one JVM), from Kafka's own jars on the test class
     * path: its storage formatted first, as kafka-storage.sh format does.
     */
    public static RealServer kafka() throws IOException, InterruptedException {
        int[] ports = freePorts(2);
        int port = ports[0];
        int controller = ports[1];
        Path dir = Files.createTempDirectory("kafka");
        Path properties = dir.resolve("server.properties");
        Files.writeString(properties, String.join("\n", "process.roles=broker,controller", "node.id=1",
                "controller.quorum.voters=1@127.0.0.1:" + controller,
                "listeners=PLAINTEXT://127.0.0.1:" + port + ",CONTROLLER://127.0.0.1:" + controller,
                "advertised.listeners=PLAINTEXT://127.0.0.1:" + port, "controller.listener.names=CONTROLLER",
                "listener.security.protocol.map=PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
                "log.dirs=" + dir.resolve("data"), "offsets.topic.replication.factor=1",
                "transaction.state.log.replication.factor=1", "transaction.state.log.min.isr=1") + "\n");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        String classPath = System.getProperty("java.class.path");
        // Kafka's own generator (what `kafka-storage random-uuid` prints) never yields a '-': an id starting with
        // one is read by the tool's argument parser as an option (a CI failure, 1 run in 64).
        String clusterId = Uuid.randomUuid().toString();
        run(List.of(java, "-cp", classPath, "kafka.tools.StorageTool", "format", "-t", clusterId, "-c",
                properties.toString()), dir.resolve("format.log"));
        Path logging = dir.resolve("log4j2.properties");
        Files.writeString(logging, String.join("\n", "appender.out.type = Console", "appender.out.name = out",
                "appender.out.layout.type = PatternLayout", "appender.out.layout.pattern = [%d] %p %m (%c)%n",
                "rootLogger.level = info", "rootLogger.appenderRef.out.ref = out") + "\n");
        return of("kafka", port, dir, List.of(java, "-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1",
                "-Dlog4j2.configurationFile=" + logging, "-cp", classPath, "kafka.Kafka", properties.toString()),
                RealServer::kafkaHasABroker);
    }

    /** Ready: Kafka's own admin client, bootstrapped on the broker, is told of a broker in the cluster. */
    private static String kafkaHasABroker(RealServer kafka) throws InterruptedException {
        Map<String, Object> settings = Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, "127.0.0.1:" + kafka.port,
                AdminClientConfig.REQUEST_TIMEOUT_MS_CONFIG, 2000, AdminClientConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, 3000);
        try (Admin admin = Admin.create(settings)) {
            return admin.describeCluster().nodes().get(5, TimeUnit.SECONDS).isEmpty() ? "no broker in the cluster" : null;
        } catch (ExecutionException | TimeoutException notYet) {
            return "describeCluster: " + notYet;
        }
    }

    /** Starts the server and returns once it is ready by its own account (see the factory methods). */
    public RealServer start() throws Exception {
        return start(readiness);
    }

    /** Starts the server and returns once {@code ready} says so: for a test that wants an earlier state. */
    public RealServer start(Readiness ready) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("server.log").toFile());
        builder.environment().putAll(env);
        process = builder.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
        String answer = "not asked yet";
        while (true) {
            if (!process.isAlive()) {
                throw new IllegalStateException(name + " on 127.0.0.1:" + port + " exited with code "
                        + process.exitValue() + " while starting; its log: " + log());
            }
            answer = ready.notReady(this);
            if (answer == null) {
                return this;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException(name + " on 127.0.0.1:" + port + " was not ready within " + START_SECONDS
                        + " s (last answer: " + answer.strip() + "); its log: " + log());
            }
            Thread.sleep(100);
        }
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
        if (process != null) {
            afterStop.run();
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
        return freePorts(1)[0];
    }

    /**
     * Distinct free loopback ports for one server, drawn below the kernel's ephemeral range
     * (/proc/sys/net/ipv4/ip_local_port_range), where no outgoing connection is ever given a port: a server starts
     * seconds after its ports are drawn, and in that time any client on the machine (epmd's, rabbitmqctl's, this
     * JVM's) may be handed an ephemeral port as its own end. CI failed so: RabbitMQ's distribution port, drawn as a
     * free ephemeral port, was bound by another process by the time the node booted ("dist_port_already_used ...
     * not_erlang"). Each socket stays bound until all are drawn, so one server never gets the same port twice.
     */
    public static int[] freePorts(int count) throws IOException {
        int below = ephemeralLow();
        int lowest = Math.max(1024, below - 16_384);
        Random random = new Random();
        List<ServerSocket> held = new ArrayList<>();
        try {
            int[] ports = new int[count];
            for (int tries = 0; held.size() < count; tries++) {
                if (tries == 1_000) {
                    throw new IOException("no free loopback port in " + lowest + "-" + (below - 1) + " after 1000 tries");
                }
                int port = lowest + random.nextInt(below - lowest);
                ServerSocket socket = new ServerSocket();
                try {
                    socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port), 1);
                } catch (IOException inUse) {
                    socket.close();
                    continue;
                }
                ports[held.size()] = port;
                held.add(socket);
            }
            return ports;
        } finally {
            for (ServerSocket socket : held) {
                socket.close();
            }
        }
    }

    private static int ephemeralLow() throws IOException {
        Path range = Path.of("/proc/sys/net/ipv4/ip_local_port_range");
        // one read of the whole line: a sysctl file answers only a read from offset 0 (readString reads 1 byte first)
        String line;
        try (BufferedReader reader = Files.newBufferedReader(range)) {
            line = reader.readLine();
        }
        int low = Integer.parseInt(line.trim().split("\\s+")[0]);
        if (low < 1024 + 1_024) {
            throw new IOException(range + " starts at " + low + ": no room below it for the tests' servers");
        }
        return low;
    }

    /** A client's output and exit code ("... (exit code N)"), bounded by 30 s; the server's user is not needed. */
    private static String client(List<String> command) throws IOException, InterruptedException {
        return client(command, Map.of());
    }

    private static String client(List<String> command, Map<String, String> env) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().putAll(env);
        Process p = builder.start();
        byte[] output = p.getInputStream().readAllBytes();
        if (!p.waitFor(30, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            return String.join(" ", command) + " did not finish";
        }
        return new String(output, StandardCharsets.UTF_8).strip() + " (exit code " + p.exitValue() + ")";
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
        throw new IllegalStateException(name + " is not installed (scripts/test.sh installs redis-server, postgresql, "
                + "mariadb-server, rabbitmq-server and nats-server)");
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
