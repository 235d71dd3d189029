package example.second;

import java.io.IOException;
import java.io.OutputStream;
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

import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.starvationlab.meter.CarrierWaitMeter;

/**
 * A small service that is not the lab: the JDK's own HTTP server, with endpoints on virtual threads that
 * hold their carriers in each way a service can, and a health check off the carriers.
 *
 * <pre>
 * java --enable-native-access=ALL-UNNAMED -jar target/second-service.jar 8081 [9081]
 * </pre>
 *
 * GET /sync?ms=100    a blocking call inside a synchronized method (pins on JDK 21-23; 24-25 with -XX:LockingMode=1)
 * GET /native?ms=100  a blocking call made from inside a native frame: libc's bsearch calling back into Java (pins on every
 *                     JDK; 501 on JDK 21, which has no final FFM)
 * GET /downcall?ms=100 a blocking native call (usleep through FFM, as a JNI driver's call): holds its carrier on every
 *                     JDK, and the JDK records no event for it; 501 on JDK 21
 * GET /clinit?ms=100  a class initializer that blocks (holds its carrier on every JDK)
 * GET /clinit-wait?ms=100 uses a class another request is initializing, whose initializer blocks: waiting for it
 *                     holds the carrier on JDK 21-25 (26 unmounts the wait in interpreted code)
 * GET /classload?ms=100 a class loader that blocks, holding its lock, while loading a class the JVM asked for (holds
 *                     its carrier on every JDK)
 * GET /deadlock?ms=10000 a deadlock on carriers where synchronized pins: one waiter per carrier, pinned, waits for a lock whose
 *                     owner waits for a carrier; the waiters give up after ms (503), which ends it. Elsewhere it answers at once
 * GET /sleep?ms=100   a plain blocking call: the virtual thread unmounts (holds no carrier)
 * GET /cpu?ms=100     ms of computation (holds its carrier on every JDK)
 * GET /hello          answers at once, on a virtual thread: the endpoint starvation slows
 * GET /health         answers at once, on the server's platform threads; its median stays fast while the carriers
 *                     starve, but not its tail: it shares the server with the endpoints on virtual threads
 * GET :9081/health    the same on a management port of its own (the optional second argument), a server no virtual
 *                     thread touches: it stays fast while the carriers starve
 * GET :9081/metrics   Prometheus text: the starvation meter's waits for a carrier (-Dsecond.meter=off leaves it out)
 */
public class SecondService {

    private static final int DEFAULT_MS = 100;
    private static final PrometheusMeterRegistry METRICS = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private static final ExecutorService VIRTUAL = virtualThreads();
    /** {@code NativeWait.call(int)} and {@code sleepInNative(int)}, compiled at release 22 (src/main/java22); on JDK 21 handles that throw. */
    private static final MethodHandle NATIVE_WAIT = nativeWait("call");
    private static final MethodHandle NATIVE_SLEEP = nativeWait("sleepInNative");

    public static void main(String[] args) throws IOException {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 8081;
        HttpServer server = HttpServer.create(new InetSocketAddress(port), 1024);
        // the server's own threads, platform ones: they read requests, answer /health and hand the rest to virtual threads
        server.setExecutor(Executors.newFixedThreadPool(4));
        server.createContext("/sync", onVirtualThread(exchange -> new LegacyClient().fetch(millis(exchange))));
        // invoke, not invokeExact: a lambda's expression is typed (int)Object, which invoke adapts to the handle's (int)void
        server.createContext("/native", onVirtualThread(exchange -> NATIVE_WAIT.invoke(millis(exchange))));
        server.createContext("/downcall", onVirtualThread(exchange -> NATIVE_SLEEP.invoke(millis(exchange))));
        server.createContext("/clinit", onVirtualThread(exchange -> ClassInit.blockInInitializer(millis(exchange))));
        server.createContext("/clinit-wait", onVirtualThread(exchange -> ClassInit.awaitOthersInitializer(millis(exchange))));
        server.createContext("/classload", onVirtualThread(exchange -> ClassInit.blockInClassLoading(millis(exchange))));
        server.createContext("/deadlock", onVirtualThread(exchange -> {
            if (!Deadlock.run(millis(exchange))) {
                throw new Deadlock.GaveUp();
            }
        }));
        server.createContext("/sleep", onVirtualThread(exchange -> Thread.sleep(millis(exchange))));
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
            management.createContext("/metrics", exchange -> answer(exchange, 200, METRICS.scrape(), "text/plain; version=0.0.4; charset=utf-8"));
            management.start();
        }
        System.out.println("SecondService listening on " + port + (args.length > 1 ? ", management on " + args[1] : "")
                + " (JDK " + Runtime.version() + ")");
    }

    interface Work {
        void run(HttpExchange exchange) throws Throwable;
    }

    /** A virtual thread per task, each task's wait for a carrier timed by the starvation meter, which also runs its canary. */
    private static ExecutorService virtualThreads() {
        ExecutorService virtual = Executors.newVirtualThreadPerTaskExecutor();
        if ("off".equals(System.getProperty("second.meter"))) {
            return virtual; // to measure what the meter costs
        }
        CarrierWaitMeter meter = new CarrierWaitMeter();
        meter.bindTo(METRICS);
        return meter.wrap(virtual);
    }

    private static MethodHandle nativeWait(String method) {
        MethodType type = MethodType.methodType(void.class, int.class);
        try {
            if (Runtime.version().feature() >= 22) {
                return MethodHandles.lookup().findStatic(Class.forName("example.second.NativeWait"), method, type);
            }
            return MethodHandles.lookup().findStatic(SecondService.class, "noFfm", type);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    private static void noFfm(int ms) {
        // answered 501
        throw new UnsupportedOperationException("a native frame needs FFM, final from JDK 22; this is JDK " + Runtime.version().feature());
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
            } catch (UnsupportedOperationException e) {
                answer(exchange, 501, "{\"error\":\"" + e.getMessage() + "\"}");
            } catch (Deadlock.GaveUp e) {
                answer(exchange, 503, "{\"error\":\"" + e.getMessage() + "\"}");
            } catch (Throwable e) {
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
        answer(exchange, status, body, "application/json");
    }

    private static void answer(HttpExchange exchange, int status, String body, String contentType) {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        try (OutputStream out = exchange.getResponseBody()) {
            exchange.getResponseHeaders().set("Content-Type", contentType);
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
