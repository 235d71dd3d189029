package io.starvationlab;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * HTTP/1.1 over a plain socket, for requests a well-behaved client would never send (malformed
 * request lines, oversized headers, bodies on GET) and for clients that walk away mid-request.
 */
public final class RawHttp {

    private static final Pattern CONTENT_LENGTH = Pattern.compile("(?im)^content-length:\\s*(\\d+)");

    private RawHttp() {
    }

    /** A response: status 0 when the server closed the connection without one. */
    public record Response(int status, String head, String body, Duration took) {
        public String header(String name) {
            Matcher header = Pattern.compile("(?im)^" + Pattern.quote(name) + ":[ \\t]*(.*?)[ \\t]*$").matcher(head);
            return header.find() ? header.group(1) : null;
        }
    }

    /**
     * Sends {@code request} (a full HTTP message) and reads the response until its Content-Length is read or the
     * server closes the connection, giving up after {@code timeout}.
     */
    public static Response exchange(URI server, byte[] request, Duration timeout) {
        long start = System.nanoTime();
        ByteArrayOutputStream received = new ByteArrayOutputStream();
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.setSoTimeout((int) timeout.toMillis());
            try {
                socket.getOutputStream().write(request);
            } catch (IOException e) {
                // the server may answer and close before it read everything (431, 413): read what it said
            }
            try {
                byte[] buffer = new byte[8192];
                for (int read = 0; read >= 0 && !answered(received); read = socket.getInputStream().read(buffer)) {
                    received.write(buffer, 0, Math.max(read, 0));
                }
            } catch (SocketTimeoutException e) {
                throw new AssertionError("no answer within " + timeout + " to " + new String(request, 0, Math.min(request.length, 120),
                        StandardCharsets.ISO_8859_1).replace("\r\n", " | "), e);
            } catch (IOException e) {
                // reset after it answered a request it had not read to the end: the answer came first
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - start);
        String text = received.toString(StandardCharsets.ISO_8859_1);
        int endOfHead = text.indexOf("\r\n\r\n");
        if (endOfHead < 0) {
            return new Response(0, "", "", took);
        }
        byte[] body = text.substring(endOfHead + 4).getBytes(StandardCharsets.ISO_8859_1);
        return new Response(Integer.parseInt(text.substring(9, 12)), text.substring(0, endOfHead), new String(body, StandardCharsets.UTF_8), took);
    }

    /** Whether {@code received} holds a head and the body its Content-Length announces: what a server that keeps the connection sent. */
    private static boolean answered(ByteArrayOutputStream received) {
        String text = received.toString(StandardCharsets.ISO_8859_1);
        int endOfHead = text.indexOf("\r\n\r\n");
        Matcher length = CONTENT_LENGTH.matcher(text.substring(0, Math.max(endOfHead, 0)));
        return endOfHead >= 0 && length.find() && text.length() - endOfHead - 4 >= Integer.parseInt(length.group(1));
    }

    /** Sends a GET and closes the connection, without reading the answer, once {@code leave} opens. */
    public static void abandon(URI server, String pathAndQuery, CountDownLatch leave) {
        try (Socket socket = new Socket(server.getHost(), server.getPort())) {
            socket.getOutputStream().write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: localhost\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            leave.await();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
