package io.starvationlab;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, for requests a well-behaved client would never send (malformed
 * request lines, oversized headers, bodies on GET) and for clients that walk away mid-request.
 */
public final class RawHttp {

    private RawHttp() {
    }

    /** A response: status 0 when the server closed the connection without one. */
    public record Response(int status, Map<String, String> headers, String body, Duration took) {
        public String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** Sends {@code request} (a full HTTP message) and reads the response, giving up after {@code timeout}. */
    public static Response exchange(URI server, byte[] request, Duration timeout) {
        long start = System.nanoTime();
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout((int) timeout.toMillis());
            OutputStream out = socket.getOutputStream();
            try {
                out.write(request);
                out.flush();
            } catch (IOException e) {
                // the server may answer and close before it read everything (431, 413): read what it said
            }
            return read(socket.getInputStream(), start);
        } catch (SocketTimeoutException e) {
            throw new AssertionError("no answer within " + timeout + " to " + preview(request), e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Sends a GET and closes the connection, without reading the answer, once {@code leave} opens. */
    public static void abandon(URI server, String pathAndQuery, java.util.concurrent.CountDownLatch leave) {
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            leave.await();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Response read(InputStream in, long start) throws IOException {
        ByteArrayOutputStream head = new ByteArrayOutputStream();
        int matched = 0;
        int b;
        while (matched < 4 && (b = in.read()) >= 0) {
            head.write(b);
            matched = (b == "\r\n\r\n".charAt(matched)) ? matched + 1 : (b == '\r' ? 1 : 0);
        }
        if (head.size() == 0) {
            return new Response(0, Map.of(), "", Duration.ofNanos(System.nanoTime() - start));
        }
        String[] lines = head.toString(StandardCharsets.ISO_8859_1).split("\r\n");
        int status = Integer.parseInt(lines[0].split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int colon = lines[i].indexOf(':');
            if (colon > 0) {
                headers.put(lines[i].substring(0, colon).trim().toLowerCase(Locale.ROOT), lines[i].substring(colon + 1).trim());
            }
        }
        byte[] body = new byte[0];
        String length = headers.get("content-length");
        if (length != null) {
            body = in.readNBytes(Integer.parseInt(length));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            body = readChunked(in);
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8), Duration.ofNanos(System.nanoTime() - start));
    }

    private static byte[] readChunked(InputStream in) throws IOException {
        ByteArrayOutputStream body = new ByteArrayOutputStream();
        while (true) {
            String sizeLine = readLine(in);
            int size = Integer.parseInt(sizeLine.split(";")[0].trim(), 16);
            if (size == 0) {
                readLine(in);
                return body.toByteArray();
            }
            body.write(in.readNBytes(size));
            readLine(in);
        }
    }

    private static String readLine(InputStream in) throws IOException {
        StringBuilder line = new StringBuilder();
        int b;
        while ((b = in.read()) >= 0 && b != '\n') {
            if (b != '\r') {
                line.append((char) b);
            }
        }
        return line.toString();
    }

    private static String preview(byte[] request) {
        String text = new String(request, 0, Math.min(request.length, 120), StandardCharsets.ISO_8859_1);
        return text.replace("\r\n", " | ") + (request.length > 120 ? "..." : "");
    }
}
