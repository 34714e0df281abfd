package dev.sidecarwait;

import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.io.PrintWriter;
import java.lang.reflect.Method;
import java.util.Arrays;
import org.junit.platform.launcher.LauncherDiscoveryRequest;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/**
 * Runs one fuzz target (CLASS#METHOD, the class's full name) through the JUnit Platform in this JVM, for
 * scripts/fuzz.sh: Jazzer fuzzes one target per JVM, and starting Maven for each of them cost more than the fuzzing
 * itself. Exit 0 when the target ran and passed, 1 otherwise (a finding: Jazzer saves its input).
 */
public final class OneFuzzTarget {

    private OneFuzzTarget() {
    }

    public static void main(String[] args) throws ClassNotFoundException {
        String[] target = args[0].split("#", 2);
        Class<?> tests = Class.forName(target[0]);
        Method method = Arrays.stream(tests.getDeclaredMethods()).filter(m -> m.getName().equals(target[1])).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no method " + args[0]));
        LauncherDiscoveryRequest request = LauncherDiscoveryRequestBuilder.request()
                .selectors(selectMethod(tests, method)).build();
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create().execute(request, listener);
        TestExecutionSummary summary = listener.getSummary();
        summary.printFailuresTo(new PrintWriter(System.err, true), 20);
        boolean passed = summary.getTestsFoundCount() > 0 && summary.getTotalFailureCount() == 0;
        System.err.println(args[0] + ": " + summary.getTestsSucceededCount() + " passed, " + summary.getTotalFailureCount()
                + " failed, " + summary.getTestsSkippedCount() + " skipped");
        System.exit(passed ? 0 : 1);
    }
}
