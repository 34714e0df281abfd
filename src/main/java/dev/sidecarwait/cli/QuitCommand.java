package dev.sidecarwait.cli;

import dev.sidecarwait.mesh.Detector;
import dev.sidecarwait.mesh.PodMesh;
import dev.sidecarwait.mesh.SidecarQuit;
import dev.sidecarwait.output.Log;
import dev.sidecarwait.probe.Target;
import dev.sidecarwait.tls.TlsSettings;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

@Command(name = "quit", mixinStandardHelpOptions = true, versionProvider = SidecarWaitCommand.VersionProvider.class,
        description = "Tell the sidecar to exit (POST to its quit endpoint), e.g. at the end of a Job's script.",
        footer = {"",
                "Exit codes: 0 every POST got a 2xx answer, 1 otherwise, 2 bad usage.",
                "",
                "Examples:",
                "  Istio (" + SidecarQuit.ISTIO_URL + "), then Linkerd's:",
                "    sidecar-wait quit",
                "    sidecar-wait quit --mesh linkerd",
                "  At the end of a Job's script:",
                "    run-batch; code=$?; sidecar-wait quit; exit $code"})
final class QuitCommand implements Subcommand {

    @Mixin
    LogOptions logging;

    @Mixin
    MeshOption meshOption;

    @Mixin
    TlsOptions tls;

    @Option(names = "--url", paramLabel = "URL", converter = Converters.HttpSettingConverter.class,
            description = "Quit endpoint to POST to; repeatable. Env: SIDECAR_WAIT_QUIT_URL (comma-separated). Default: "
                    + "the mesh's (istio: " + SidecarQuit.ISTIO_URL + ", linkerd: http://localhost:4191/shutdown, envoy: http://localhost:9901/quitquitquit).")
    List<Target> urls = new ArrayList<>();

    @Option(names = "--timeout", paramLabel = "DURATION", converter = Converters.PositiveDurationConverter.class,
            description = "Longest each POST may take. Env: SIDECAR_WAIT_QUIT_TIMEOUT. Default: 5s.")
    Duration timeout;

    @Override
    public int run(Context context) {
        Env env = new Env(context.env());
        Log log = logging.log(context, env);
        List<Target> chosen = !urls.isEmpty() ? urls : ProbeOptions.targetList(env, "SIDECAR_WAIT_QUIT_URL", Target::parseHttpSetting);
        List<Target.Http> given = QuitOptions.httpOnly(urls.isEmpty() ? "SIDECAR_WAIT_QUIT_URL" : "--url", chosen);
        Duration each = QuitOptions.timeout("--timeout", timeout, env);
        TlsSettings tlsSettings = tls.settle(env, List.copyOf(given));
        MeshOption.Choice choice = meshOption.resolve(env);
        List<Target.Http> quitUrls = given;
        if (given.isEmpty()) {
            PodMesh pod;
            try {
                pod = PodMesh.now(choice.preset(), choice == MeshOption.Choice.AUTO, new Detector(context.clock(), PodMesh.proc()));
            } catch (IOException e) {
                log.error(PodMesh.unreadable(e));
                return 1;
            }
            if (pod.detected() != null) {
                log.info(pod.detectedLine(null));
            }
            if (pod.mesh() == null || pod.mesh().quitUrl() == null) {
                if (pod.detected() != null) {
                    log.info("Nothing to quit: " + (pod.mesh() == null ? "this pod has no mesh"
                            : pod.mesh().title() + " has no proxy in the pod"));
                    return 0;
                }
                throw new UsageError("nothing to quit with --mesh " + choice.name().toLowerCase(java.util.Locale.ROOT)
                        + ": " + pod.mesh().title() + " has no proxy in the pod; give --url for another");
            }
            quitUrls = List.of((Target.Http) Target.parse(pod.mesh().quitUrl()));
        }
        String insecure = tlsSettings.insecureWarning(quitUrls.stream().filter(Target::verifiesTls).map(Target::text).toList());
        if (insecure != null) {
            log.warn(insecure);
        }
        return new SidecarQuit(context.clock(), log::info, log::warn, tlsSettings).post(quitUrls, each) ? 0 : 1;
    }
}
