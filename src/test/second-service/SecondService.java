import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;

/**
 * A small service that is not the lab: the JDK's own HTTP server, with endpoints on virtual threads that
 * hold their carriers in the three ways a service can, and a health check off the carriers.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED SecondService.java 8081 [9081]                 # JDK 22+
 * java --enable-preview --source 21 --enable-native-access=ALL-UNNAMED SecondService.java 8081 [9081]   # JDK 21 (FFM is a preview there)
 * </pre>
 *
 * GET /sync?ms=100    a blocking call inside a synchronized method (pins on JDK 21-23)
 * GET /native?ms=100  a blocking call made from inside a native frame: libc's bsearch calling back into Java (pins on every JDK)
 * GET /cpu?ms=100     ms of computation (holds its carrier on every JDK)
 * GET /hello          answers at once, on a virtual thread: the endpoint starvation slows
 * GET /health         answers at once, on the server's platform threads; its median stays fast while the carriers
 *                     starve, but not its tail: it shares the server with the endpoints on virtual threads
 * GET :9081/health    the same on a management port of its own (the optional second argument), a server no virtual
 *                     thread touches: it stays fast while the carriers starve
 */
public class SecondService {

    private static final int DEFAULT_MS = 100;
    private static final ExecutorService VIRTUAL = Executors.newVirtualThreadPerTaskExecutor();

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8081;
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 1024);
        // the server's own threads, platform ones: they read requests, answer /health and hand the rest to virtual threads
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/sync", onVirtualThread(exchange -> new LegacyClient().fetch(millis(exchange))));
        server.createContext("/native", onVirtualThread(exchange -> NativeWait.call(millis(exchange))));
        server.createContext("/cpu", onVirtualThread(exchange -> Checksum.compute(millis(exchange))));
        server.createContext("/hello", onVirtualThread(exchange -> {
        }));
        server.createContext("/health", exchange -> answer(exchange, 200, "{\"status\":\"UP\"}"));
        server.start();
        if (args.length > 1) {
            // as a framework's management port: a server, dispatcher and threads of its own
            HttpServer management = HttpServer.create(new InetSocketAddress(Integer.parseInt(args[1])), 64);
            management.setExecutor(Executors.newFixedThreadPool(2));
            management.createContext("/health", exchange -> answer(exchange, 200, "{\"status\":\"UP\"}"));
            management.start();
        }
        System.out.println("SecondService listening on " + port + (args.length > 1 ? ", management on " + args[1] : "")
                + " (JDK " + Runtime.version() + ")");
    }

    interface Work {
        void run(HttpExchange exchange) throws Exception;
    }

    /** Each request of the endpoint runs on a new virtual thread; the server's thread returns at once. */
    private static HttpHandler onVirtualThread(Work work) {
        return exchange -> VIRTUAL.execute(() -> {
            try {
                work.run(exchange);
                Thread current = Thread.currentThread();
                answer(exchange, 200, "{\"path\":\"" + exchange.getRequestURI().getPath() + "\",\"virtual\":" + current.isVirtual() + "}");
            } catch (IllegalArgumentException e) {
                answer(exchange, 400, "{\"error\":\"" + e.getMessage() + "\"}");
            } catch (Exception e) {
                answer(exchange, 500, "{\"error\":\"" + e + "\"}");
            }
        });
    }

    private static int millis(HttpExchange exchange) {
        String query = exchange.getRequestURI().getQuery();
        if (query == null || !query.startsWith("ms=")) {
            return DEFAULT_MS;
        }
        try {
            int ms = Integer.parseInt(query.substring(3));
            if (ms >= 0 && ms <= 30_000) {
                return ms;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw new IllegalArgumentException("ms must be 0-30000");
    }

    private static void answer(HttpExchange exchange, int status, String body) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = exchange.getResponseBody()) {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(status, bytes.length);
            out.write(bytes);
        } catch (IOException e) {
            // the client left
        } finally {
            exchange.close();
        }
    }

    /** A client of a slow remote system that guards its connection with a monitor, as older libraries do. */
    static final class LegacyClient {
        synchronized void fetch(int ms) throws InterruptedException {
            Thread.sleep(ms);
        }
    }

    /** A native library that calls back into Java, which then blocks: bsearch over one element calls its comparator once. */
    static final class NativeWait {
        private static final Linker LINKER = Linker.nativeLinker();
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

    /** Computation that never blocks, so its virtual thread keeps the carrier throughout. */
    static final class Checksum {
        static volatile long sink;

        static void compute(int ms) {
            long deadline = System.nanoTime() + ms * 1_000_000L;
            long x = 17;
            while (System.nanoTime() < deadline) {
                for (int i = 0; i < 1_000; i++) {
                    x = x * 31 + i;
                }
            }
            sink = x;
        }
    }
}
