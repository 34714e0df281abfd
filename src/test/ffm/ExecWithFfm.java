import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import dev.sidecarwait.Clock;
import dev.sidecarwait.cli.Cli;
import dev.sidecarwait.cli.Context;
import dev.sidecarwait.process.Descriptors;
import dev.sidecarwait.process.ExecStage;
import dev.sidecarwait.process.ExecPlan;
import dev.sidecarwait.process.Inherited;
import dev.sidecarwait.process.ProcessReplacer;
import dev.sidecarwait.process.ThisProcess;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.StructLayout;
import java.lang.foreign.SymbolLookup;
import java.lang.invoke.MethodHandle;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * sidecar-wait on a JDK with the foreign function API (22+), able to replace itself for real: the libc calls of
 * src/main/java/dev/sidecarwait/process/Libc.java (GraalVM @CFunctions, which only run in the native binary),
 * made through java.lang.foreign instead, call for call, so the JVM tests can check a real hand-over end to end
 * (HandoverProcessTest). Compiled and run by that test with the JDK 25 beside the build's JDK 17. One call differs:
 * a HotSpot JVM keeps using the descriptors it opened until the very exec, so they are marked close-on-exec here
 * where the native binary closes them; either way the command never sees them.
 *
 * <p>Arguments: a file with what the process inherited (the descriptors, then SigIgn and SigBlk from
 * /proc/self/status, separated by ';'), written by the test's stand-in for the container runtime just before it
 * started this JVM (which opens descriptors and takes SIGUSR2 for itself before main), or - for what this thread has
 * now (an exec stage, which is given the masks it sets); then sidecar-wait's own arguments, or an exec stage's
 * ({@link ExecStage}), as the native binary's main reads them.
 */
public final class ExecWithFfm implements ProcessReplacer {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final SymbolLookup LIBC = LINKER.defaultLookup();
    private static final StructLayout CALL_STATE = Linker.Option.captureStateLayout();
    private static final MethodHandle SIGNAL = handle("signal", FunctionDescriptor.of(ADDRESS, JAVA_INT, ADDRESS));
    private static final MethodHandle SIGEMPTYSET = handle("sigemptyset", FunctionDescriptor.of(JAVA_INT, ADDRESS));
    private static final MethodHandle SIGADDSET = handle("sigaddset", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle SIGPROCMASK = handle("sigprocmask",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle FCNTL = LINKER.downcallHandle(LIBC.find("fcntl").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT), Linker.Option.firstVariadicArg(2));
    private static final int F_SETFD = 2;
    private static final int FD_CLOEXEC = 1;
    private static final MethodHandle EXECV = LINKER.downcallHandle(LIBC.find("execv").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), Linker.Option.captureCallState("errno"));
    private static final MethodHandle OPEN = handle("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final int O_RDONLY = 0;
    private static final long SIG_DFL = 0;
    private static final long SIG_IGN = 1;
    private static final int SIG_SETMASK = 2;
    private static final int SIGSET_BYTES = 128;

    private final Inherited atStart;
    private final List<String> self;

    private ExecWithFfm(Inherited atStart, List<String> self) {
        this.atStart = atStart;
        this.self = self;
    }

    public static void main(String[] args) throws Throwable {
        String[] rest = Arrays.copyOfRange(args, 1, args.length);
        if (args[0].equals("-")) {
            ExecWithFfm stage = new ExecWithFfm(Inherited.ofThisThread(), List.of());
            System.exit(ExecStage.run(stage, List.of(rest), System.getenv("PATH"), System.err));
        }
        String[] inherited = Files.readString(Path.of(args[0])).trim().split(";");
        Set<Integer> descriptors = Arrays.stream(inherited[0].split(",")).map(Integer::valueOf)
                .collect(Collectors.toCollection(java.util.TreeSet::new));
        // The native image runtime opens its own executable before main, not close-on-exec (MEASURED.md, 28c0c1e: fd 4
        // after the hand-over), so main finds it among the descriptors open at start. The same, made here.
        int runtimeOwn = openOwnExecutable();
        descriptors.add(runtimeOwn);
        Path procSelf = Inherited.THIS_THREAD; // as the native binary reads it: fd and exe are the process's
        Inherited atStart = new Inherited(Long.parseUnsignedLong(inherited[1], 16), Long.parseUnsignedLong(inherited[2], 16),
                descriptors, Descriptors.onFile(procSelf.resolve("fd"), Set.of(runtimeOwn),
                Files.readSymbolicLink(procSelf.resolve("exe"))), null);
        System.err.println("ExecWithFfm: the runtime's own descriptor on its executable: " + runtimeOwn);
        List<String> self = List.of(ProcessHandle.current().info().command().orElseThrow(), "--enable-native-access=ALL-UNNAMED",
                "-XX:TieredStopAtLevel=1", "-cp", System.getProperty("java.class.path"), ExecWithFfm.class.getName(), "-");
        ThisProcess process = new ThisProcess(null, new ExecWithFfm(atStart, self));
        System.exit(Cli.run(new Context(System.getenv(), Clock.SYSTEM, System.out, System.err, process), rest));
    }

    @Override
    public Inherited atStart() {
        return atStart;
    }

    @Override
    public List<String> self() {
        return self;
    }

    @Override
    public void setDispositions(ExecPlan plan) {
        try {
            for (int signal : plan.ignored()) {
                SIGNAL.invoke(signal, MemorySegment.ofAddress(SIG_IGN));
            }
            for (int signal : plan.defaulted()) {
                SIGNAL.invoke(signal, MemorySegment.ofAddress(SIG_DFL));
            }
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public int exec(ExecPlan plan) {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment mask = arena.allocate(SIGSET_BYTES);
            int ignored = (int) SIGEMPTYSET.invoke(mask);
            for (int signal : plan.blocked()) {
                ignored = (int) SIGADDSET.invoke(mask, signal);
            }
            ignored = (int) SIGPROCMASK.invoke(SIG_SETMASK, mask, MemorySegment.NULL);
            for (int fd : plan.close()) {
                ignored = (int) FCNTL.invoke(fd, F_SETFD, FD_CLOEXEC);
            }
            List<byte[]> argv = plan.argv();
            MemorySegment args = arena.allocate(ADDRESS, argv.size() + 1);
            for (int i = 0; i < argv.size(); i++) {
                args.setAtIndex(ADDRESS, i, cString(arena, argv.get(i)));
            }
            MemorySegment state = arena.allocate(CALL_STATE);
            ignored = (int) EXECV.invoke(state, cString(arena, plan.file()), args);
            return state.get(JAVA_INT, CALL_STATE.byteOffset(MemoryLayout.PathElement.groupElement("errno")));
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        }
    }

    /** open(2) of /proc/self/exe, read-only and without O_CLOEXEC, as the native image runtime's own is. */
    private static int openOwnExecutable() throws Throwable {
        try (Arena arena = Arena.ofConfined()) {
            byte[] exe = Files.readSymbolicLink(Path.of("/proc/self/exe")).toString().getBytes(java.nio.charset.StandardCharsets.UTF_8);
            int fd = (int) OPEN.invoke(cString(arena, exe), O_RDONLY);
            if (fd < 0) {
                throw new IllegalStateException("open(/proc/self/exe) failed");
            }
            return fd;
        }
    }

    private static MemorySegment cString(Arena arena, byte[] bytes) {
        MemorySegment text = arena.allocate(bytes.length + 1);
        MemorySegment.copy(bytes, 0, text, JAVA_BYTE, 0, bytes.length);
        text.set(JAVA_BYTE, bytes.length, (byte) 0);
        return text;
    }

    private static MethodHandle handle(String name, FunctionDescriptor descriptor) {
        return LINKER.downcallHandle(LIBC.find(name).orElseThrow(), descriptor);
    }
}
