package io.starvationlab.diagnose;

/**
 * One frame of a stack, from a thread dump's text ({@code java.base/java.lang.Thread.sleep(Thread.java:507)})
 * or from a JFR stack trace.
 *
 * @param line         the line number, or -1
 * @param nativeMethod a native method, or a native frame JFR recorded
 */
record Frame(String className, String method, int line, boolean nativeMethod) {

    /**
     * Parses a frame of a thread dump: a JSON dump's {@code [loader/][module[@version]/]class.method(File.java:12)} or
     * a {@code Thread.print} line's {@code at class.method(module@version/File.java:12)}. A hidden class's
     * {@code /0x...} suffix is dropped.
     */
    static Frame ofDumpText(String text) {
        String trimmed = text.strip();
        if (trimmed.startsWith("at ")) {
            trimmed = trimmed.substring(3);
        }
        int open = trimmed.indexOf('(');
        String qualified = (open < 0 ? trimmed : trimmed.substring(0, open)).replaceAll("/0x[0-9a-fA-F]+", "");
        qualified = qualified.substring(qualified.lastIndexOf('/') + 1);
        int dot = qualified.lastIndexOf('.');
        String className = dot < 0 ? qualified : qualified.substring(0, dot);
        String method = dot < 0 ? "" : qualified.substring(dot + 1);
        String location = open < 0 ? "" : trimmed.substring(open + 1, Math.max(open + 1, trimmed.length() - 1));
        int line = -1;
        int colon = location.lastIndexOf(':');
        if (colon >= 0) {
            try {
                line = Integer.parseInt(location.substring(colon + 1));
            } catch (NumberFormatException e) {
                line = -1;
            }
        }
        return new Frame(className, method, line, location.endsWith("Native Method"));
    }

    /** {@code class.method}, the name reports give "the frame". */
    String qualifiedMethod() {
        return className + "." + method;
    }

    String describe() {
        return qualifiedMethod() + (nativeMethod ? " (native)" : line > 0 ? ":" + line : "");
    }

    boolean is(String className, String method) {
        return this.className.equals(className) && this.method.equals(method);
    }
}
