package example.second;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Waits inside the JVM's class loading and initialization, where a virtual thread keeps its carrier on
 * every JDK: the JVM calls the class loader and runs the initializer below a frame of its own. Each request
 * brings classes of its own (a new {@link Isolated} loader), since a class loads and initializes once.
 */
public final class ClassInit {

    /** How long {@link Slow}'s initializer blocks, read on the thread that runs it (public: read from another loader). */
    public static final ThreadLocal<Integer> INIT_MILLIS = ThreadLocal.withInitial(() -> 0);

    /** The class files of {@link Trigger} and {@link Slow}, read once: a read per request would be file I/O, which virtual threads compensate for. */
    private static final Map<String, byte[]> CLASS_FILES = Map.of(Trigger.class.getName(), classFile(Trigger.class), Slow.class.getName(),
            classFile(Slow.class));

    private static final AtomicReference<Generation> CURRENT = new AtomicReference<>();

    private ClassInit() {
    }

    /** A class initializer that blocks for {@code ms}: each request initializes a class of its own. */
    static void blockInInitializer(int ms) throws ReflectiveOperationException {
        INIT_MILLIS.set(ms);
        new Generation(new Isolated(0)).trigger.run();
    }

    /**
     * Uses a class another request may be initializing, which blocks for {@code ms}: requests that come
     * meanwhile wait for that initialization; the first after it ends starts a new class.
     */
    static void awaitOthersInitializer(int ms) throws ReflectiveOperationException {
        Generation generation = CURRENT.get();
        if (generation == null || generation.done) {
            // no lock: requests blocked on one would wait off their carriers, not for them
            Generation next = new Generation(new Isolated(0));
            generation = CURRENT.compareAndSet(generation, next) ? next : CURRENT.get();
        }
        INIT_MILLIS.set(ms);
        generation.trigger.run();
        generation.done = true;
    }

    /** A class whose loader blocks for {@code ms} while it holds its lock, as one reading a slow disk or network. */
    static void blockInClassLoading(int ms) throws ReflectiveOperationException {
        INIT_MILLIS.set(0);
        new Generation(new Isolated(ms)).trigger.run();
    }

    private static final class Generation {
        final Runnable trigger;
        volatile boolean done;

        Generation(Isolated loader) throws ReflectiveOperationException {
            trigger = (Runnable) loader.loadClass(Trigger.class.getName()).getConstructor().newInstance();
        }
    }

    /** Defines {@link Trigger} and {@link Slow} itself; everything else from its parent. Not parallel capable: one lock. */
    static final class Isolated extends ClassLoader {
        private final int loadMillis;

        Isolated(int loadMillis) {
            super(ClassInit.class.getClassLoader());
            this.loadMillis = loadMillis;
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.equals(Trigger.class.getName()) && !name.equals(Slow.class.getName())) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded != null) {
                    return loaded;
                }
                if (name.equals(Slow.class.getName())) {
                    pause(loadMillis);
                }
                byte[] bytes = CLASS_FILES.get(name);
                return defineClass(name, bytes, 0, bytes.length);
            }
        }
    }

    /** Its first use loads {@link Slow} through its own loader and runs Slow's initializer, both by the JVM. */
    public static final class Trigger implements Runnable {
        @Override
        public void run() {
            Slow.touch();
        }
    }

    static final class Slow {
        static {
            pause(INIT_MILLIS.get());
        }

        static void touch() {
        }
    }

    private static byte[] classFile(Class<?> type) {
        try (InputStream in = type.getResourceAsStream(type.getName().substring(type.getPackageName().length() + 1) + ".class")) {
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static void pause(int ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
