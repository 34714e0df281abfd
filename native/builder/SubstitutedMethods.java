import java.io.IOException;
import java.lang.classfile.ClassFile;
import java.lang.classfile.ClassModel;
import java.lang.classfile.CodeElement;
import java.lang.classfile.MethodModel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.jar.JarFile;

/**
 * Holds each method that sidecar-wait substitutes (src/main/java/dev/sidecarwait/nativeimage), in the builder's jar
 * or in the JDK the image is built from, to the code its substitution was written against: a substitution replaces a
 * method whole, so a GraalVM or JDK update that changes the original must be read again before the build goes on.
 * substituted.txt lists "CLASS METHOD DESCRIPTOR SHA256"; a class not in the jar is read from the running JDK (the
 * builder's). The digest is over the method's instructions as javap would print them (opcode and operands by name, not
 * pool index, a label by its bci). Exits 1 naming a method whose code differs, with its new digest. Run by scripts/native.sh on JDK 25:
 * java SubstitutedMethods.java SVM_JAR substituted.txt.
 */
public final class SubstitutedMethods {

    public static void main(String[] args) throws Exception {
        boolean changed = false;
        try (JarFile svm = new JarFile(args[0])) {
            for (String line : Files.readAllLines(Path.of(args[1]))) {
                if (line.isBlank() || line.startsWith("#")) {
                    continue;
                }
                String[] fields = line.trim().split("\\s+");
                ClassModel model = ClassFile.of().parse(classBytes(svm, fields[0]));
                String digest = digest(model, fields[1], fields[2]);
                if (!digest.equals(fields[3])) {
                    System.out.println("SubstitutedMethods: " + fields[0] + "." + fields[1] + fields[2] + " is not the code its "
                            + "substitution was written against (now " + digest + "): read it again, then update " + args[1]);
                    changed = true;
                }
            }
        }
        System.exit(changed ? 1 : 0);
    }

    /** The class file from the builder's jar, or else from the running JDK's modules. */
    private static byte[] classBytes(JarFile svm, String internalName) throws IOException {
        if (svm.getEntry(internalName + ".class") != null) {
            return svm.getInputStream(svm.getEntry(internalName + ".class")).readAllBytes();
        }
        java.nio.file.FileSystem jrt = java.nio.file.FileSystems.getFileSystem(java.net.URI.create("jrt:/"));
        try (java.util.stream.Stream<Path> modules = Files.list(jrt.getPath("/modules"))) {
            for (Path module : modules.toList()) {
                Path file = module.resolve(internalName + ".class");
                if (Files.exists(file)) {
                    return Files.readAllBytes(file);
                }
            }
        }
        throw new IOException("no class " + internalName + " in the builder's jar or the JDK");
    }

    private static String digest(ClassModel model, String name, String descriptor) throws Exception {
        for (MethodModel method : model.methods()) {
            if (method.methodName().equalsString(name) && method.methodType().equalsString(descriptor)) {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                List<CodeElement> code = method.code().orElseThrow().elementList();
                for (CodeElement element : code) {
                    // a label prints its code model's identity hash: left out, the bci stays
                    String text = element.toString().replaceAll("CodeModel\\[id=\\d+\\]", "CodeModel");
                    sha.update((text + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                return HexFormat.of().formatHex(sha.digest());
            }
        }
        throw new IOException("no method " + name + descriptor + " in " + model.thisClass().asInternalName());
    }
}
