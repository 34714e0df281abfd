package dev.sidecarwait.tls;

import java.nio.file.Path;

/** A file of TLS's that cannot be used: which one (its role), where, and why, in a few words that quote none of it. */
public final class BadFile extends IllegalArgumentException {

    /** What the file is for, named by its flag. */
    public enum Role {
        CA("--cacert"), CERT("--cert"), KEY("--key");

        public final String flag;

        Role(String flag) {
            this.flag = flag;
        }
    }

    private final Role role;
    private final Path file;
    private final String reason;

    public BadFile(Role role, Path file, String reason) {
        super(role.flag + " " + file + ": " + reason);
        this.role = role;
        this.file = file;
        this.reason = reason;
    }

    public Role role() {
        return role;
    }

    public Path file() {
        return file;
    }

    public String reason() {
        return reason;
    }
}
