package io.starvationlab.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a virtual thread's stack says about its carrier: whether it blocks while mounted (pinned),
 * where a native frame holds it, whether it waits on a socket, and which frame to name: the innermost
 * application frame, the first from the top outside the JDK, common frameworks and drivers, and the
 * prefixes the user added with {@code --skip}.
 */
final class Stacks {

    /** Never "the frame": the JDK, and frameworks and drivers whose frames sit between an application and its waits. */
    static final List<String> DEFAULT_SKIP = List.of("java.", "javax.", "jdk.", "sun.", "com.sun.", "jakarta.", "kotlin.", "kotlinx.", "scala.",
            "io.quarkus.", "io.vertx.", "io.netty.", "io.smallrye.", "org.jboss.", "io.agroal.", "org.postgresql.", "com.mysql.", "org.mariadb.",
            "oracle.jdbc.", "com.zaxxer.hikari.", "org.hibernate.", "io.micrometer.", "io.opentelemetry.", "org.springframework.", "org.apache.",
            "org.eclipse.jetty.", "io.undertow.", "io.helidon.", "io.micronaut.", "reactor.", "okhttp3.", "com.fasterxml.");

    private final List<String> skip;

    Stacks(List<String> extraSkip) {
        List<String> all = new ArrayList<>(DEFAULT_SKIP);
        all.addAll(extraSkip);
        this.skip = List.copyOf(all);
    }

    List<String> skipped() {
        return skip;
    }

    /** The first frame from the top that the application wrote, or empty when there is none. */
    Optional<Frame> applicationFrame(List<Frame> frames) {
        return frames.stream().filter(this::isApplication).findFirst();
    }

    boolean isApplication(Frame frame) {
        String name = frame.className();
        // lambda proxies and method-handle forms are generated, not written
        if (name.contains("$$Lambda") || name.contains("LambdaForm$") || name.isEmpty()) {
            return false;
        }
        return skip.stream().noneMatch(name::startsWith);
    }

    /** A virtual thread blocked while it keeps its carrier: parked on the carrier, or (JDK 21) in {@code Object.wait}. */
    static boolean blockedOnCarrier(List<Frame> frames) {
        if (frames.stream().anyMatch(f -> f.is("java.lang.VirtualThread", "parkOnCarrierThread"))) {
            return true;
        }
        return !frames.isEmpty() && frames.get(0).is("java.lang.Object", "wait0");
    }

    /**
     * Where a native frame sits under Java code (an FFM downcall whose upcall blocks, or a JNI method that
     * calls back into Java): the application frame that made the native call, the first below the topmost
     * native frame that has application code above it; empty when there is none.
     */
    Optional<Frame> nativeCaller(List<Frame> frames) {
        boolean applicationAbove = false;
        for (int i = 0; i < frames.size(); i++) {
            Frame frame = frames.get(i);
            boolean nativeBoundary = frame.className().startsWith("jdk.internal.foreign.abi.DowncallStub")
                    || frame.nativeMethod() && !frame.className().equals("jdk.internal.vm.Continuation");
            if (nativeBoundary && applicationAbove) {
                return isApplication(frame) ? Optional.of(frame) : applicationFrame(frames.subList(i + 1, frames.size()));
            }
            applicationAbove |= isApplication(frame);
        }
        return Optional.empty();
    }

    /** The socket frame a thread waits in, if any: a read (or write, connect) of the JDK's socket implementations. */
    static Optional<Frame> socketIo(List<Frame> frames) {
        return frames.stream().filter(f -> f.className().startsWith("sun.nio.ch.NioSocketImpl") || f.className().startsWith("sun.nio.ch.SocketChannelImpl")
                || f.className().startsWith("sun.nio.ch.DatagramChannelImpl") || f.className().equals("java.net.SocketInputStream")).findFirst();
    }

    /**
     * The top frames worth showing: from the first frame outside the JDK's park and sleep machinery, without
     * method-handle plumbing, at most {@code depth}.
     */
    static List<Frame> top(List<Frame> frames, int depth) {
        int from = 0;
        while (from < frames.size() && isJdkWaitMachinery(frames.get(from))) {
            from++;
        }
        return frames.subList(from, frames.size()).stream()
                .filter(f -> !f.className().startsWith("java.lang.invoke.") && !f.className().contains("$$Lambda"))
                .limit(depth).toList();
    }

    private static boolean isJdkWaitMachinery(Frame frame) {
        String name = frame.className();
        return name.equals("java.lang.VirtualThread") || name.equals("jdk.internal.misc.Unsafe") || name.startsWith("java.util.concurrent.locks.")
                || name.equals("jdk.internal.vm.Continuation") || name.equals("java.lang.Thread") && frame.method().startsWith("sleep");
    }
}
