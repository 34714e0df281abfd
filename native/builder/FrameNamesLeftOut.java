package com.oracle.svm.core.encoder;

import java.util.Set;

/**
 * The builder's symbol encoder but for the frame information, the table a stack trace is read from: there each
 * method is named "", and so is each file a class's name already says, so a frame prints as
 * "at dev.sidecarwait.probe.Waiter.(:139)" where the JVM prints "at dev.sidecarwait.probe.Waiter.schedule(Waiter.java:139)".
 * The class and the line still say where; the tool prints no stack trace of its own, only the runtime's last resort
 * for an uncaught error or a crash does. Every other name (classes, fields, reflection's members, a class's enclosing
 * method) is kept, and so are the method names of the classes whose frames Substrate VM's runtime tells apart by name:
 * a reflective call's, a continuation's, the access controller's. Put on the builder's module by scripts/native.sh
 * with the stand-in SymbolEncoderFeature. What it was written against is held in native/builder/substituted.txt, so
 * that a GraalVM that changes it stops the build (NativeBuildTest reads these lines):
 * held: com.oracle.svm.core.code.FrameInfoEncoder$SourceFieldsFromMethod.fillSourceFields (the call that names frames)
 * held: com.oracle.svm.core.jdk.StackTraceUtils.shouldShowFrame (reflective frames, a continuation's)
 * held: com.oracle.svm.core.jdk.StackAccessControlContextVisitor.visitFrame (the access controller's)
 * held: com.oracle.svm.core.heap.StoredContinuationAccess$PreemptVisitor.visitRegularFrame (a continuation's yield)
 */
public final class FrameNamesLeftOut implements SymbolEncoder {

    /** Whose frames com.oracle.svm.core's StackTraceUtils and StoredContinuationAccess compare by method name. */
    private static final Set<String> READ_BY_NAME = Set.of("java.lang.Class", "java.lang.reflect.Method",
            "java.lang.reflect.Constructor", "jdk.internal.vm.Continuation", "java.security.AccessController",
            "com.oracle.svm.core.heap.StoredContinuationAccess", "com.oracle.svm.core.thread.Safepoint");
    /** The one caller that names frames (FrameInfoEncoder.SourceFieldsFromMethod.fillSourceFields). */
    private static final String FRAME_INFORMATION = "com.oracle.svm.core.code.FrameInfoEncoder$SourceFieldsFromMethod";

    private final StackWalker stack = StackWalker.getInstance();

    @Override
    public String encodeMethod(String methodName, Class<?> clazz) {
        boolean forAFrame = stack.walk(frames -> frames.skip(1).findFirst())
                .map(caller -> caller.getClassName().equals(FRAME_INFORMATION)).orElse(false);
        return forAFrame && !READ_BY_NAME.contains(clazz.getName()) ? "" : methodName;
    }

    @Override
    public String encodeModule(String moduleName) {
        return moduleName;
    }

    @Override
    public String encodeClass(String className) {
        return className;
    }

    @Override
    public String encodePackage(String packageName) {
        return packageName;
    }

    /** "" for the file a class's name already says (Waiter.java for ...probe.Waiter$1): a frame prints "(:139)". */
    @Override
    public String encodeSourceFile(String sourceFileName, Class<?> clazz) {
        String name = clazz.getName().substring(clazz.getName().lastIndexOf('.') + 1);
        String outermost = name.indexOf('$') > 0 ? name.substring(0, name.indexOf('$')) : name;
        return (outermost + ".java").equals(sourceFileName) ? "" : sourceFileName;
    }

    @Override
    public String encodeField(String fieldName, Class<?> clazz) {
        return fieldName;
    }
}
