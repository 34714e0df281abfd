import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.MethodModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.JarFile;

/**
 * Writes DIR/{amd64,aarch64,riscv64}cpufeatures.h, the CPUFeatures struct of each architecture, one char per @CField
 * of the builder's own interface (com.oracle.svm.core.ARCH.ARCHLibCHelper$CPUFeatures), in its order. The builder
 * asks the C compiler about all three whatever the target; GraalVM's distribution ships these headers, Maven Central
 * does not, and a header made from the jar cannot drift from it. native/c/libchelper/cpu_features.c fills the
 * x86-64 one. Run on JDK 25 (java.lang.classfile): java CpuFeatureHeaders.java SVM_JAR DIR.
 */
public final class CpuFeatureHeaders {

    public static void main(String[] args) throws Exception {
        Path include = Files.createDirectories(Path.of(args[1]));
        try (JarFile svm = new JarFile(args[0])) {
            for (String[] arch : new String[][] {{"amd64", "AMD64"}, {"aarch64", "AArch64"}, {"riscv64", "RISCV64"}}) {
                String entry = "com/oracle/svm/core/" + arch[0] + "/" + arch[1] + "LibCHelper$CPUFeatures.class";
                ClassModel model = ClassFile.of().parse(svm.getInputStream(svm.getEntry(entry)).readAllBytes());
                StringBuilder header = new StringBuilder("/* Made by native/builder/CpuFeatureHeaders.java from the builder's "
                        + entry + " */\ntypedef struct {\n");
                for (MethodModel method : model.methods()) {
                    if (method.methodType().stringValue().equals("()Z")) {
                        header.append("  char ").append(method.methodName().stringValue()).append(";\n");
                    }
                }
                Files.writeString(include.resolve(arch[0] + "cpufeatures.h"), header.append("} CPUFeatures;\n").toString());
            }
        }
    }
}
