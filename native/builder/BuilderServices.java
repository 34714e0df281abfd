import java.lang.module.ModuleDescriptor;
import java.lang.module.ModuleFinder;
import java.lang.module.ModuleReference;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Holds the services native-image.properties excludes (-H:ServiceLoaderFeatureExcludeServices) to the builder's own:
 * exactly the services its modules provide (their module-info's "provides"), less the JDK's own service types, which
 * the image may look up. Those catalog entries sit in the image heap only because the builder's module layer and class
 * loaders are there; a GraalVM update that adds, renames or drops one must update the list. Exits 1 naming the
 * difference. Run by scripts/native.sh on JDK 25: java BuilderServices.java JARS_DIR native-image.properties.
 */
public final class BuilderServices {

    public static void main(String[] args) throws Exception {
        TreeSet<String> provided = new TreeSet<>();
        for (ModuleReference module : ModuleFinder.of(Path.of(args[0])).findAll()) {
            for (ModuleDescriptor.Provides provides : module.descriptor().provides()) {
                if (!provides.service().startsWith("java.")) {
                    provided.add(provides.service());
                }
            }
        }
        Matcher option = Pattern.compile("^\\s+-H:ServiceLoaderFeatureExcludeServices=(\\S+)", Pattern.MULTILINE)
                .matcher(Files.readString(Path.of(args[1])));
        TreeSet<String> excluded = new TreeSet<>();
        while (option.find()) {
            excluded.addAll(Arrays.asList(option.group(1).split(",")));
        }
        if (!provided.equals(excluded)) {
            TreeSet<String> missing = new TreeSet<>(provided);
            missing.removeAll(excluded);
            TreeSet<String> extra = new TreeSet<>(excluded);
            extra.removeAll(provided);
            System.out.println("BuilderServices: " + args[1] + " excludes services the builder does not provide " + extra
                    + " and not ones it does " + missing + ": -H:ServiceLoaderFeatureExcludeServices must list the builder's own");
            System.exit(1);
        }
    }
}
