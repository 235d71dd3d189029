package example.spring;

import jakarta.servlet.http.HttpServletRequest;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.http.HttpStatus;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.server.ResponseStatusException;

/**
 * A service written as users write one, with no code of the lab: each request on a virtual thread of Tomcat's
 * ({@code spring.threads.virtual.enabled}), the starvation meter bound by its dependency alone, the actuator's
 * Prometheus endpoint on a management port (application.properties).
 *
 * <pre>
 * GET /hello          answers at once: the endpoint starvation slows
 * GET /sleep?ms=100   a plain blocking call: its virtual thread unmounts
 * GET /sync?ms=100    the same call inside synchronized on the request's own object: pins its carrier on JDK 21-23
 * GET /cpu?ms=100     ms of computation: holds its carrier on every JDK
 * GET :8081/actuator/prometheus, :8081/actuator/health
 * </pre>
 */
@SpringBootApplication
@RestController
public class ExampleApplication {

    static volatile long sink;

    public static void main(String[] args) {
        SpringApplication.run(ExampleApplication.class, args);
    }

    @GetMapping("/hello")
    String hello() {
        return "hello from " + Thread.currentThread();
    }

    @GetMapping("/sleep")
    String sleep(@RequestParam(defaultValue = "100") int ms) throws InterruptedException {
        Thread.sleep(checked(ms));
        return "slept " + ms + " ms";
    }

    @GetMapping("/sync")
    String sync(@RequestParam(defaultValue = "100") int ms, HttpServletRequest request) throws InterruptedException {
        synchronized (request) {
            Thread.sleep(checked(ms));
        }
        return "slept " + ms + " ms in synchronized";
    }

    @GetMapping("/cpu")
    String cpu(@RequestParam(defaultValue = "100") int ms) {
        long deadline = System.nanoTime() + checked(ms) * 1_000_000L;
        long x = 17;
        while (System.nanoTime() < deadline) {
            for (int i = 0; i < 1_000; i++) {
                x = x * 31 + i;
            }
        }
        sink = x;
        return "computed for " + ms + " ms";
    }

    private static int checked(int ms) {
        if (ms < 0 || ms > 30_000) {
            throw new ResponseStatusException(HttpStatus.BAD_REQUEST, "ms must be 0-30000");
        }
        return ms;
    }
}
