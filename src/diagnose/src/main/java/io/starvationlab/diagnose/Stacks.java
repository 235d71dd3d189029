package io.starvationlab.diagnose;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * What a virtual thread's stack says about its carrier: what holds it ({@link #hold}), where a native frame
 * sits, whether it waits on a socket, and which frame to name: the innermost application frame, the first
 * from the top outside the JDK, common frameworks and drivers, and the prefixes the user added with {@code --skip}.
 */
final class Stacks {

    /**
     * What holds a carrier, as one stack shows it.
     *
     * @param frame     the frame named for it: the innermost application frame, or for a class initializer or a
     *                  class loader that blocks, its own frame
     * @param note      what else the stack says of it (the native caller, the class waited for), or null
     * @param waitsFor  what it waits for another thread in while it keeps the carrier: the lock or synchronizer it parks
     *                  in ({@code java.util.concurrent.locks.ReentrantLock.lock}), or "a monitor" it waits to enter; null when none
     * @param lock      the object it waits on, as the JVM names it (JDK 25+), or null
     * @param lockOwner who holds that, where the dump names it, or null
     */
    record Hold(Cause cause, String frame, String note, String waitsFor, String lock, String lockOwner) {

        Hold(Cause cause, String frame, String note) {
            this(cause, frame, note, null, null, null);
        }
    }

    static final String NO_APPLICATION_FRAME = "(no application frame)";

    private static final List<String> CLASS_LOADING = List.of("loadClass", "loadClassOrNull", "findClass");

    /**
     * Never "the frame": the JDK, frameworks and drivers whose frames sit between an application and its waits, and the
     * starvation meter, whose wrapper runs every task it times.
     */
    static final List<String> DEFAULT_SKIP = List.of("io.starvationlab.meter.", "java.", "javax.", "jdk.", "sun.", "com.sun.", "jakarta.", "kotlin.", "kotlinx.", "scala.",
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

    /** The name of the frame to show for a stack: its application frame's. */
    String named(List<Frame> frames) {
        return applicationFrame(frames).map(Frame::qualifiedMethod).orElse(NO_APPLICATION_FRAME);
    }

    boolean isApplication(Frame frame) {
        String name = frame.className();
        // lambda proxies and method-handle forms are generated, not written
        if (name.contains("$$Lambda") || name.contains("LambdaForm$") || name.isEmpty()) {
            return false;
        }
        return skip.stream().noneMatch(name::startsWith);
    }

    /**
     * What holds the carrier of a mounted virtual thread. Blocked where it is parked on its carrier, in
     * {@code Object.wait} or entering a monitor, or where the carrier used almost no CPU ({@code carrierIdle}):
     * then the innermost class initializer or class loader on the stack, else a native frame under Java code
     * that blocks (an upcall), else a monitor (nothing else pins a parked thread without a native frame),
     * else a native call. Not blocked, it computes.
     */
    Hold hold(Mounted mounted, boolean carrierIdle) {
        List<Frame> frames = mounted.stack();
        String named = named(frames);
        if (mounted.initWaitFor() != null) {
            return new Hold(Cause.CLASS_INIT_WAIT, named, "waits for another thread to initialize " + mounted.initWaitFor());
        }
        boolean parked = blockedOnCarrier(frames) || mounted.waitingToLock();
        if (!parked && !carrierIdle) {
            return new Hold(Cause.CPU_BOUND, named, null);
        }
        for (int i = 0; i < frames.size(); i++) {
            Frame frame = frames.get(i);
            if (frame.method().equals("<clinit>")) {
                return new Hold(Cause.CLASS_INIT, frame.qualifiedMethod(), null);
            }
            if (CLASS_LOADING.contains(frame.method())) {
                // the loader's own frame names it, past the JDK's loaders it delegates to; below the last one, what asked for the class
                int last = i;
                while (last + 1 < frames.size() && CLASS_LOADING.contains(frames.get(last + 1).method())) {
                    last++;
                }
                Frame loader = frames.subList(i, last + 1).stream().filter(f -> !isJdk(f)).findFirst().orElse(frame);
                return new Hold(Cause.CLASS_LOADING, loader.qualifiedMethod(), "loading a class for " + named(frames.subList(last + 1, frames.size())));
            }
        }
        Optional<Frame> caller = nativeCaller(frames);
        if (parked) {
            String waitsFor = waitsFor(mounted);
            String lock = waitsFor == null ? null : mounted.blocker();
            String owner = waitsFor == null ? null : mounted.lockOwner();
            return caller.map(c -> new Hold(Cause.UPCALL, named, "a native frame is on the stack, below the call from " + c.qualifiedMethod(), waitsFor,
                    lock, owner)).orElseGet(() -> new Hold(Cause.SYNCHRONIZED, named, null, waitsFor, lock, owner));
        }
        Optional<Frame> call = frames.stream().takeWhile(f -> !isApplication(f))
                .filter(f -> f.nativeMethod() || f.className().startsWith("jdk.internal.foreign.abi.DowncallStub")).findFirst()
                .or(() -> frames.stream().limit(1).filter(Frame::nativeMethod).findFirst());
        return new Hold(Cause.NATIVE_CALL, named, call.map(c -> "the native call: " + c.qualifiedMethod())
                .orElse("no native frame shown (a JSON dump hides FFM's stubs): a native call, or a wait inside the JVM"));
    }

    /**
     * What a parked thread waits for another thread in: the {@code java.util.concurrent} lock or synchronizer its application
     * called (a sleep or a socket read waits for no thread), or the monitor it waits to enter.
     */
    private String waitsFor(Mounted mounted) {
        if (mounted.waitingToLock()) {
            return "a monitor";
        }
        Frame synchronizer = null;
        for (Frame frame : mounted.stack()) {
            if (isApplication(frame)) {
                break;
            }
            if (frame.className().startsWith("java.util.concurrent.") && !frame.className().equals("java.util.concurrent.locks.LockSupport")) {
                synchronizer = frame; // the outermost before the application's frame: what the application called
            }
        }
        return synchronizer == null ? null : synchronizer.qualifiedMethod();
    }

    private static boolean isJdk(Frame frame) {
        return frame.className().startsWith("java.") || frame.className().startsWith("jdk.") || frame.className().startsWith("sun.");
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
