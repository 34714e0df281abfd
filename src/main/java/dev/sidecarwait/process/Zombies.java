package dev.sidecarwait.process;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Finds exited-but-unreaped processes ("Z" in /proc/PID/stat) whose parent is a given process. */
public final class Zombies {

    private final Path proc;

    public Zombies(Path proc) {
        this.proc = proc;
    }

    /**
     * The parent of the process whose /proc/PID/stat this is, when it is a zombie; -1 otherwise. "pid (comm) state
     * ppid ...": comm may hold spaces and parentheses, so the fields are read after the last ')'.
     */
    static long zombieParent(String stat) {
        int close = stat.lastIndexOf(')');
        if (close < 0 || close + 2 > stat.length()) {
            return -1;
        }
        String[] fields = stat.substring(close + 2).split(" ");
        try {
            long parent = fields.length > 1 && fields[0].equals("Z") ? Long.parseLong(fields[1]) : -1;
            return parent >= 0 ? parent : -1;
        } catch (NumberFormatException notAPid) {
            return -1;
        }
    }

    public List<Long> childrenOf(long parent) {
        List<Long> zombies = new ArrayList<>();
        // the processes' directories, named by their pids (a filter, not the glob "[0-9]*", which compiles a regex)
        DirectoryStream.Filter<Path> pids = entry -> Character.isDigit(entry.getFileName().toString().charAt(0));
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(proc, pids)) {
            for (Path entry : entries) {
                String stat;
                try {
                    stat = Files.readString(entry.resolve("stat"), StandardCharsets.UTF_8);
                } catch (IOException goneMeanwhile) {
                    continue;
                }
                if (zombieParent(stat) == parent) {
                    zombies.add(Long.parseLong(entry.getFileName().toString()));
                }
            }
        } catch (IOException | NumberFormatException e) {
            return zombies;
        }
        return zombies;
    }
}
