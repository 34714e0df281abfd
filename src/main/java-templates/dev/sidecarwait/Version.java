package dev.sidecarwait;

/** Filled in by Maven (templating-maven-plugin), so the version needs no resource lookup at run time. */
public final class Version {
    public static final String VERSION = "${project.version}";

    private Version() {
    }
}
