package floor;

/** The floor under the tool's file (scripts/floor.sh): what GraalVM makes of a program that prints one line. */
public class Hello {
    public static void main(String[] args) {
        System.out.println("hello, " + args.length + " arguments");
    }
}
