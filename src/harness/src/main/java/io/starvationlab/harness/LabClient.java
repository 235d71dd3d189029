package io.starvationlab.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

/** Reads the service's introspection endpoints: {@code /lab/info}, {@code /lab/pinning}, {@code /q/metrics}. */
public final class LabClient {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI base;
    private final HttpClient client = HttpClient.newBuilder()
            .connectTimeout(Duration.ofSeconds(5))
            .executor(java.util.concurrent.Executors.newCachedThreadPool(Thread.ofPlatform().daemon().name("lab-client-", 0).factory()))
            .build();

    public LabClient(URI base) {
        this.base = base;
    }

    public JsonNode info() {
        return json("/lab/info");
    }

    public JsonNode pinning(boolean reset) {
        return json("/lab/pinning" + (reset ? "?reset=true" : ""));
    }

    public PrometheusText metrics() {
        return PrometheusText.parse(get("/q/metrics").body());
    }

    public JsonNode json(String path) {
        HttpResponse<String> response = get(path);
        try {
            return JSON.readTree(response.body());
        } catch (IOException e) {
            throw new UncheckedIOException("not JSON from " + path + ": " + response.body(), e);
        }
    }

    public HttpResponse<String> get(String path) {
        return get(path, Duration.ofSeconds(60));
    }

    public HttpResponse<String> get(String path, Duration timeout) {
        try {
            return client.send(HttpRequest.newBuilder(base.resolve(path)).timeout(timeout).GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + path + " failed", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    public static ObjectMapper json() {
        return JSON;
    }
}
