package dev.sidecarwait.cli;

import dev.sidecarwait.Version;
import picocli.CommandLine.Command;
import picocli.CommandLine.IVersionProvider;

@Command(name = "sidecar-wait", mixinStandardHelpOptions = true, versionProvider = SidecarWaitCommand.VersionProvider.class,
        description = "Hold an application until its service-mesh sidecar is ready.",
        footer = {"", "Run 'sidecar-wait COMMAND --help' for a command's options and examples."})
final class SidecarWaitCommand {

    static final class VersionProvider implements IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {"sidecar-wait " + Version.VERSION};
        }
    }
}
