import java.lang.classfile.ClassFile;
import java.lang.classfile.constantpool.ClassEntry;
import java.lang.classfile.constantpool.PoolEntry;
import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Path;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;

/**
 * The --add-exports the native-image builder's modules need on this JDK, one per line: every package of a JDK module
 * that a class in the given modular jars refers to and that the JDK does not export to it. GraalVM's driver passes
 * the same list, computed when GraalVM is built (mx_substratevm.py, compute_graal_compiler_flags_map, from each
 * module's requiresConcealed); the driver is not on Maven Central, so scripts/native.sh asks this instead.
 * Run on JDK 25 (java.lang.classfile): java BuilderExports.java JAR...
 */
public final class BuilderExports {

    public static void main(String[] jars) throws Exception {
        Map<String, ModuleDescriptor> jdk = new HashMap<>();
        for (ModuleReference module : ModuleFinder.ofSystem().findAll()) {
            for (String pkg : module.descriptor().packages()) {
                jdk.put(pkg, module.descriptor());
            }
        }
        Map<String, Set<String>> needed = new TreeMap<>();
        for (String jar : jars) {
            ModuleDescriptor self = ModuleFinder.of(Path.of(jar)).findAll().iterator().next().descriptor();
            try (JarFile file = new JarFile(jar)) {
                for (JarEntry entry : Collections.list(file.entries())) {
                    String name = entry.getName();
                    if (!name.endsWith(".class") || name.startsWith("META-INF/") || name.endsWith("module-info.class")) {
                        continue;
                    }
                    for (PoolEntry constant : ClassFile.of().parse(file.getInputStream(entry).readAllBytes()).constantPool()) {
                        if (constant instanceof ClassEntry referred) {
                            String pkg = packageOf(referred.asInternalName());
                            ModuleDescriptor owner = pkg == null || self.packages().contains(pkg) ? null : jdk.get(pkg);
                            if (owner != null && !exports(owner, pkg, self.name())) {
                                needed.computeIfAbsent(owner.name() + "/" + pkg, key -> new TreeSet<>()).add(self.name());
                            }
                        }
                    }
                }
            }
        }
        needed.forEach((pkg, readers) -> System.out.println("--add-exports=" + pkg + "=" + String.join(",", readers)));
    }

    /** "java/lang/String", "[Ljava/lang/String;": "java.lang"; null for a primitive array or the default package. */
    private static String packageOf(String internalName) {
        String name = internalName.replaceFirst("^\\[+L?", "").replaceFirst(";$", "");
        int slash = name.lastIndexOf('/');
        return slash < 0 ? null : name.substring(0, slash).replace('/', '.');
    }

    private static boolean exports(ModuleDescriptor owner, String pkg, String reader) {
        return owner.exports().stream().anyMatch(export -> export.source().equals(pkg)
                && (!export.isQualified() || export.targets().contains(reader)));
    }
}
