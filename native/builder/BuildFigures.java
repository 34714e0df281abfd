import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The native build's figures, from the builder's JSON build output (-H:BuildOutputJSONFile; GraalVM's
 * build-output-schema) and the file itself, printed one per line, then held to the budget: exit 1 when the file or
 * the reachable methods are more than 1% over native/budget.properties, whose figures are each architecture's own
 * (amd64.file.bytes, arm64.file.bytes, ...). Growing is a decision, taken in the commit that raises the budget and
 * says why. Run by scripts/native.sh: java BuildFigures.java build-output.json BINARY budget.properties SECONDS ARCH.
 */
public final class BuildFigures {

    /** What the budget holds, and how much over it fails a build. */
    static final String FILE = "file.bytes";
    static final String METHODS = "reachable.methods";
    static final double ALLOWED_GROWTH = 0.01;

    public static void main(String[] args) throws IOException {
        String json = Files.readString(Path.of(args[0]));
        Map<String, Long> figures = new LinkedHashMap<>();
        figures.put(FILE, Files.size(Path.of(args[1])));
        figures.put(METHODS, number(json, "\"methods\"\\s*:\\s*\\{[^{}]*?\"reachable\"\\s*:\\s*(\\d+)"));
        figures.put("reachable.types", number(json, "\"types\"\\s*:\\s*\\{[^{}]*?\"reachable\"\\s*:\\s*(\\d+)"));
        figures.put("code.area.bytes", number(json, "\"code_area\"\\s*:\\s*\\{[^{}]*?\"bytes\"\\s*:\\s*(\\d+)"));
        figures.put("image.heap.bytes", number(json, "\"image_heap\"\\s*:\\s*\\{[^{}]*?\"bytes\"\\s*:\\s*(\\d+)"));
        figures.put("build.seconds", Long.parseLong(args[3]));
        Properties budget = new Properties();
        try (Reader in = Files.newBufferedReader(Path.of(args[2]))) {
            budget.load(in);
        }
        String arch = args[4];
        boolean over = false;
        for (Map.Entry<String, Long> figure : figures.entrySet()) {
            String limit = budget.getProperty(arch + "." + figure.getKey());
            String line = figure.getKey() + "=" + figure.getValue();
            if (limit != null && (figure.getKey().equals(FILE) || figure.getKey().equals(METHODS))) {
                long allowed = Long.parseLong(limit.trim());
                double growth = (figure.getValue() - allowed) / (double) allowed;
                line += String.format("  (budget %d, %+.1f%%)", allowed, growth * 100);
                if (growth > ALLOWED_GROWTH) {
                    line += "  OVER BUDGET";
                    over = true;
                }
            }
            System.out.println(line);
        }
        if (over) {
            System.out.println("The " + arch + " native binary grew more than 1% over native/budget.properties: cut what grew, "
                    + "or raise the budget in the commit that needs it, saying why.");
            System.exit(1);
        }
    }

    private static long number(String json, String pattern) {
        Matcher matcher = Pattern.compile(pattern, Pattern.DOTALL).matcher(json);
        if (!matcher.find()) {
            throw new IllegalArgumentException("the build output has no match for " + pattern);
        }
        return Long.parseLong(matcher.group(1));
    }
}
