package dev.sidecarwait;

/** Filled in by Maven (templating-maven-plugin), so the version needs no resource lookup at run time. */
public final class Version {
    public static final String VERSION = "${project.version}";

    /** git describe of the commit built: its abbreviated hash (a tag before it, if any), "-dirty" with changes. */
    public static final String COMMIT = "${git.commit.id.describe}";

    private Version() {
    }
}
