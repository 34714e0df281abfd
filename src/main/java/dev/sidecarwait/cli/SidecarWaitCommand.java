package dev.sidecarwait.cli;

import dev.sidecarwait.Version;
import dev.sidecarwait.process.NativeImage;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

@Command(name = "sidecar-wait", mixinStandardHelpOptions = true, versionProvider = SidecarWaitCommand.VersionProvider.class,
        description = "Hold an application until its service-mesh sidecar is ready.",
        footer = {"", "Run 'sidecar-wait COMMAND --help' for a command's options and examples."})
final class SidecarWaitCommand {

    /**
     * "sidecar-wait 0.1.0 (commit 520f08d, linux/arm64, native)": enough for a bug report from a pod to name its build.
     * The architecture as Kubernetes and image indexes name it; in the native binary os.arch is the one it was built for.
     */
    static final class VersionProvider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            String arch = System.getProperty("os.arch");
            String platform = "linux/" + switch (arch) {
                case "amd64", "x86_64" -> "amd64";
                case "aarch64" -> "arm64";
                default -> arch;
            };
            String runtime = NativeImage.RUNTIME ? "native" : "jar on Java " + Runtime.version().feature();
            return new String[] {"sidecar-wait " + Version.VERSION + " (commit " + Version.COMMIT + ", " + platform + ", "
                    + runtime + ")"};
        }
    }
}
