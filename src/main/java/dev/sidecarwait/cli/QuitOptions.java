package dev.sidecarwait.cli;

import dev.sidecarwait.probe.Target;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Quit URLs must be http:// or https:// (or http+unix://, Dapr's shutdown on its socket): a sidecar is told to quit with a POST. */
final class QuitOptions {

    private QuitOptions() {
    }

    static List<Target.Http> httpOnly(String source, List<Target> targets) {
        List<Target.Http> urls = new ArrayList<>();
        for (Target target : targets) {
            if (!(target instanceof Target.Http http)) {
                throw UsageError.invalid(source, "'" + target.text() + "' is not an http:// or https:// URL (a sidecar is told to quit with a POST)");
            }
            urls.add(http);
        }
        return urls;
    }

    static Duration timeout(String flag, Duration value, Env env) {
        return Settings.duration(flag, value, null, null, null, env, "SIDECAR_WAIT_QUIT_TIMEOUT", Duration.ofSeconds(5));
    }
}
