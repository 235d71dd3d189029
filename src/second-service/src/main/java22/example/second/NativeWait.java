package example.second;

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

/**
 * Waits inside native frames: a native library that calls back into Java, which then blocks (bsearch over one
 * element calls its comparator once), and a native call that blocks itself (usleep, as a JNI driver's call does).
 */
final class NativeWait {
    private static final Linker LINKER = Linker.nativeLinker();
    private static final MethodHandle USLEEP = LINKER.downcallHandle(LINKER.defaultLookup().find("usleep").orElseThrow(),
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle BSEARCH = LINKER.downcallHandle(LINKER.defaultLookup().find("bsearch").orElseThrow(),
            FunctionDescriptor.of(ADDRESS, ADDRESS, ADDRESS, JAVA_LONG, JAVA_LONG, ADDRESS));
    private static final MemorySegment COMPARATOR = comparator();
    private static final ThreadLocal<Integer> MILLIS = new ThreadLocal<>();

    static void call(int ms) {
        MILLIS.set(ms);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment key = arena.allocate(JAVA_INT);
            MemorySegment one = arena.allocate(JAVA_INT);
            MemorySegment found = (MemorySegment) BSEARCH.invokeExact(key, one, 1L, JAVA_INT.byteSize(), COMPARATOR);
        } catch (Throwable e) {
            throw new IllegalStateException("bsearch failed", e);
        } finally {
            MILLIS.remove();
        }
    }

    static void sleepInNative(int ms) {
        try {
            int failed = (int) USLEEP.invokeExact(ms * 1000);
        } catch (Throwable e) {
            throw new IllegalStateException("usleep failed", e);
        }
    }

    /** The upcall: nothing may be thrown through the native frame. */
    static int compare(MemorySegment a, MemorySegment b) {
        try {
            Thread.sleep(MILLIS.get());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return 0;
    }

    private static MemorySegment comparator() {
        try {
            MethodHandle compare = MethodHandles.lookup().findStatic(NativeWait.class, "compare",
                    MethodType.methodType(int.class, MemorySegment.class, MemorySegment.class));
            return LINKER.upcallStub(compare, FunctionDescriptor.of(JAVA_INT, ADDRESS, ADDRESS), Arena.global());
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }
}
