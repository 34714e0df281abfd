package dev.sidecarwait.process;

/** Linux errno values a failed exec can end with, in words (strerror's, lower case), without a libc call. */
final class Errno {

    private Errno() {
    }

    static String describe(int errno) {
        return switch (errno) {
            case 1 -> "operation not permitted";
            case 2 -> "no such file or directory";
            case 5 -> "input/output error";
            case 7 -> "argument list too long";
            case 8 -> "exec format error";
            case 12 -> "cannot allocate memory";
            case 13 -> "permission denied";
            case 14 -> "bad address";
            case 20 -> "not a directory";
            case 21 -> "is a directory";
            case 22 -> "invalid argument";
            case 24 -> "too many open files";
            case 26 -> "text file busy";
            case 36 -> "file name too long";
            case 40 -> "too many levels of symbolic links";
            default -> "errno " + errno;
        };
    }
}
