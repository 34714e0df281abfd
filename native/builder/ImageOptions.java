import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * native-image's options as its builder takes them: what GraalVM's driver does with native-image.properties, which
 * Maven ships in the jar (native/native-image.properties) and the Dockerfile's native-image reads from it, so the two
 * builds take their options from one file. Prints one line per builder argument, "jvm ARG" for the builder's JVM and
 * "image ARG" for the image: java ImageOptions.java native-image.properties [--static --libc=musl ...]. An option it
 * has no translation for is an error naming it (exit 2), never passed on unread. Each translation is what the driver
 * does (substratevm/src/com.oracle.svm.driver: DefaultOptionHandler, APIOptionHandler and the @APIOption
 * annotations of the options named).
 */
public final class ImageOptions {

    public static void main(String[] args) throws IOException {
        List<String> options = new ArrayList<>(argsOf(Path.of(args[0])));
        options.addAll(List.of(args).subList(1, args.length));
        List<String> lines = new ArrayList<>();
        for (String option : options) {
            String line = translate(option);
            if (line == null) {
                System.err.println("ImageOptions: no translation for the native-image option '" + option + "' (from "
                        + args[0] + " or the linking): add one to native/builder/ImageOptions.java");
                System.exit(2);
            }
            lines.add(line);
        }
        lines.forEach(System.out::println);
    }

    /** The Args of a native-image.properties file, split at whitespace. */
    static List<String> argsOf(Path properties) throws IOException {
        Properties file = new Properties();
        try (Reader in = Files.newBufferedReader(properties)) {
            file.load(in);
        }
        return List.of(file.getProperty("Args", "").trim().split("\\s+"));
    }

    /** "jvm ARG" or "image ARG"; null when there is no translation. */
    static String translate(String option) {
        if (option.startsWith("-H:") || option.startsWith("-R:")) {
            return "image " + option;
        }
        if (option.matches("-O[0-3bs]")) {
            return "image -H:Optimize=" + option.substring(2);
        }
        if (option.startsWith("-march=")) {
            return "image -H:MicroArchitecture=" + option.substring("-march=".length());
        }
        if (option.equals("--no-fallback")) {
            return "image -H:FallbackThreshold=0";
        }
        if (option.startsWith("--initialize-at-build-time=")) {
            return "image -H:ClassInitialization=" + String.join(",", option.substring(option.indexOf('=') + 1)
                    .replaceAll("([^,]+)", "$1:build_time").split(","));
        }
        if (option.startsWith("--limit-modules=")) {
            return "jvm -Dsvm.modulesupport.limitedModules=" + option.substring(option.indexOf('=') + 1);
        }
        if (option.equals("--static")) {
            return "image -H:+StaticExecutable";
        }
        if (option.startsWith("--libc=")) {
            return "image -H:UseLibC=" + option.substring("--libc=".length());
        }
        return null;
    }
}
