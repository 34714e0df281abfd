package com.oracle.svm.hosted.code;

import com.oracle.svm.hosted.OrderFile;
import com.oracle.svm.hosted.meta.HostedMethod;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import jdk.graal.compiler.code.CompilationResult;

/**
 * Stand-in for the builder's class of the same name, put on its module by --patch-module (scripts/native.sh). The
 * builder lays the image's code out sorted by method name, so the few hundred kB a wait runs are spread over the
 * whole 4.5 MB, and the kernel maps 64 KiB around each first touch of the file (fault-around): a ready wait had 3.9 of
 * its 4.7 MiB of code resident. This one puts first, in their order, the methods native/code-order.txt names (those a
 * wait, a check and the wrapper ran, by scripts/code-order.sh), then the rest by name as the builder does. The order
 * changes where code is, never what it does; a method the list does not name, or a name no method has, only costs
 * memory. Without the list (the system property sidecarwait.codeOrder unset) it is the builder's layouter.
 */
public class SortByMethodNameCodeSectionLayouter implements CodeSectionLayouter {

    @Override
    public List<HostedMethod> layout(Map<HostedMethod, CompilationResult> compilations) {
        Map<String, Integer> rank = OrderFile.ranks(System.getProperty("sidecarwait.codeOrder")); // symbols: SimpleClass_method_digest
        List<HostedMethod> laidOut = compilations.keySet().stream()
                .sorted(Comparator.<HostedMethod>comparingInt(m -> rank.getOrDefault(m.getUniqueShortName(), Integer.MAX_VALUE))
                        .thenComparing(m -> m.format("%H.%n(%P):%R")))
                .toList();
        if (!rank.isEmpty()) {
            long placed = laidOut.stream().filter(m -> rank.containsKey(m.getUniqueShortName())).count();
            System.out.println("code order: " + placed + " of " + rank.size() + " listed methods placed first");
        }
        return laidOut;
    }
}
