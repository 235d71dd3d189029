package io.starvationlab.jvm;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.concurrent.Callable;

/**
 * Puts a native frame on the stack with libc's {@code bsearch} over a one-element array: bsearch
 * calls the comparator exactly once, and the comparator is a Java upcall that runs the body.
 * Compiled at release 22 and loaded reflectively by {@link NativeFrames}.
 */
final class UpcallNativeFrame implements NativeFrame {

    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle BSEARCH = LINKER.downcallHandle(
            LINKER.defaultLookup().find("bsearch").orElseThrow(() -> new IllegalStateException("libc has no bsearch")),
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MemorySegment COMPARATOR = comparatorStub();
    /** The body of the call in progress on this thread; the comparator has no other way to reach it. */
    private static final ThreadLocal<Call<?>> CURRENT = new ThreadLocal<>();

    @Override
    public <T> T callInside(Callable<T> body) throws Exception {
        Call<T> call = new Call<>(body);
        CURRENT.set(call);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment key = arena.allocate(JAVA_INT);
            MemorySegment array = arena.allocate(JAVA_INT);
            MemorySegment found = (MemorySegment) BSEARCH.invokeExact(key, array, 1L, JAVA_INT.byteSize(), COMPARATOR);
            if (!call.ran) {
                throw new IllegalStateException("bsearch returned " + found + " without calling the comparator");
            }
        } catch (Exception | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException(e);
        } finally {
            CURRENT.remove();
        }
        return call.result();
    }

    /** The upcall. Nothing may escape it: an exception thrown through a native frame ends the JVM. */
    private static int compare(MemorySegment key, MemorySegment element) {
        try {
            CURRENT.get().run();
        } catch (Throwable e) {
            // run() already keeps the body's failure; this only guards against the unexpected
        }
        return 0;
    }

    private static MemorySegment comparatorStub() {
        try {
            MethodHandle compare = MethodHandles.lookup().findStatic(UpcallNativeFrame.class, "compare",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
            return LINKER.upcallStub(compare, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static final class Call<T> {
        private final Callable<T> body;
        private boolean ran;
        private T value;
        private Throwable failure;

        Call(Callable<T> body) {
            this.body = body;
        }

        void run() {
            ran = true;
            try {
                value = body.call();
            } catch (Throwable e) {
                failure = e;
            }
        }

        T result() throws Exception {
            if (failure instanceof Exception e) {
                throw e;
            }
            if (failure instanceof Error e) {
                throw e;
            }
            return value;
        }
    }
}
