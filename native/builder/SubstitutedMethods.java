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
 * Holds each method of the builder that sidecar-wait substitutes (src/main/java/dev/sidecarwait/nativeimage) to the
 * code its substitution was written against: a substitution replaces a method whole, so a GraalVM update that changes
 * the original must be read again before the build goes on. substituted.txt lists "CLASS METHOD DESCRIPTOR SHA256"; the
 * digest is over the method's instructions as javap would print them (opcode and operands by name, not pool index).
 * Exits 1 naming a method whose code differs, with its new digest. Run by scripts/native.sh on JDK 25:
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
                ClassModel model = ClassFile.of().parse(svm.getInputStream(svm.getEntry(fields[0] + ".class")).readAllBytes());
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

    private static String digest(ClassModel model, String name, String descriptor) throws Exception {
        for (MethodModel method : model.methods()) {
            if (method.methodName().equalsString(name) && method.methodType().equalsString(descriptor)) {
                MessageDigest sha = MessageDigest.getInstance("SHA-256");
                List<CodeElement> code = method.code().orElseThrow().elementList();
                for (CodeElement element : code) {
                    sha.update((element + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8));
                }
                return HexFormat.of().formatHex(sha.digest());
            }
        }
        throw new IOException("no method " + name + descriptor + " in " + model.thisClass().asInternalName());
    }
}
