package dev.sidecarwait.nativeimage;

import com.oracle.svm.core.annotate.Substitute;
import com.oracle.svm.core.annotate.TargetClass;
import java.util.Objects;

/**
 * Read only by native-image (a GraalVM substitution; the JVM never loads it). Unicode's character names are a table of
 * 175 kB (java/lang/uniName.dat) that the builder puts in the image heap whenever java.lang.CharacterName is reachable
 * (GraalVM 25's CharsetSubstitutionsFeature), and the JDK reaches it through these two methods alone, which the regular
 * expressions' {@code \N{name}} calls. Nothing here asks a character's name: every expression sidecar-wait compiles is
 * its own or picocli's, none with {@code \N}. So in the binary a name is never found, as for a name Unicode lacks; the
 * image is 196,608 bytes smaller (docs/native-journal.md, The diet). scripts/native.sh checks that the JDK's methods
 * still read as these were written against (native/builder/substituted.txt).
 */
@TargetClass(className = "java.lang.Character")
final class Target_java_lang_Character {

    private Target_java_lang_Character() {
    }

    @Substitute
    public static String getName(int codePoint) {
        throw new UnsupportedOperationException("Unicode character names are not in this binary");
    }

    @Substitute
    public static int codePointOf(String name) {
        Objects.requireNonNull(name);
        throw new IllegalArgumentException("Unrecognized character name (Unicode character names are not in this binary)");
    }
}
