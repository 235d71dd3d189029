package io.starvationlab.experiment.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.starvationlab.harness.LabServer;

/**
 * The job's server JVMs, each a fresh process, started ahead of its turn where that costs no measurement anything. A
 * JVM starting is not load, one running load is: a start runs beside a phase only while the run holds a window open
 * ({@link #open}: a load that holds the carriers in a wait and uses next to no CPU), and whatever else runs (a baseline,
 * a warm-up, any other load) first waits for the start in progress ({@link #settle}). A JVM whose turn is over stops in
 * the background.
 */
public final class ServerStarts implements AutoCloseable {

    /**
     * At most this many started JVMs wait for their turn: idle, each some 400 MB, its embedded PostgreSQL and 1 % of a
     * CPU (its canary, JFR): enough that the matrix's JVMs start beside the main plan's phases.
     */
    private static final int AHEAD = 12;
    /** A start begins only while the open window has at least this long to run: about what a start takes on two cores. */
    private static final Duration ROOM = Duration.ofSeconds(4);
    /** A JVM whose turn is over has this long to exit on SIGTERM before it is killed: what it still holds is no longer measured. */
    private static final Duration STOP_GRACE = Duration.ofSeconds(2);

    /** One server JVM's start: how long it took, and how much of that the run waited for (the rest ran beside a phase). */
    public record Start(String name, double seconds, double waitedSeconds) {
    }

    /** A planned server JVM and its process once begun. */
    private static final class Entry {
        final ServerRun.Spec spec;
        CompletableFuture<LabServer> server;
        long begun;
        double seconds;
        double waited;
        boolean taken;
        boolean done;

        Entry(ServerRun.Spec spec) {
            this.spec = spec;
        }

        boolean ready() {
            return server != null && server.isDone();
        }
    }

    private final Path logs;
    private final List<Entry> entries = new ArrayList<>();
    private final List<Thread> stopping = new ArrayList<>();
    private final Thread starter;
    private long openUntil;
    private boolean closed;

    public ServerStarts(Path logs) {
        this.logs = logs;
        this.starter = Thread.ofPlatform().daemon().name("server-starts").start(this::startAhead);
    }

    /** Plans a server JVM's turn, after those planned before. */
    public synchronized void plan(ServerRun.Spec spec) {
        entries.add(new Entry(spec));
        notifyAll();
    }

    /** The server JVM of {@code spec}'s turn: started beside an earlier phase, or now; waiting for a start in progress. */
    public LabServer take(ServerRun.Spec spec) {
        Entry entry;
        boolean startHere;
        synchronized (this) {
            entry = entries.stream().filter(e -> e.spec.name().equals(spec.name())).findFirst().orElseGet(() -> {
                Entry unplanned = new Entry(spec);
                entries.add(unplanned);
                return unplanned;
            });
            startHere = entry.server == null;
            if (startHere) {
                begin(entry);
            }
            entry.taken = true;
        }
        long waiting = System.nanoTime();
        if (startHere) {
            launch(entry);
        }
        try {
            return entry.server.join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException cause ? cause : e;
        } finally {
            waited(entry, waiting);
        }
    }

    /** {@code spec}'s turn is over: its JVM stops in the background. */
    public synchronized void done(ServerRun.Spec spec) {
        entries.stream().filter(e -> e.spec.name().equals(spec.name()) && !e.done).findFirst().ifPresent(this::end);
    }

    /** Starts may run beside what the run does for {@code length}: a load that holds the carriers in a wait. */
    public synchronized void open(Duration length) {
        openUntil = System.nanoTime() + length.toNanos();
        notifyAll();
    }

    /** Closes the window and waits for the start in progress: nothing runs beside what comes next. */
    public void settle() {
        List<Entry> starting;
        synchronized (this) {
            openUntil = 0;
            starting = entries.stream().filter(e -> e.server != null && !e.server.isDone()).toList();
        }
        for (Entry entry : starting) {
            long waiting = System.nanoTime();
            entry.server.handle((server, failure) -> server).join();
            waited(entry, waiting);
        }
    }

    private synchronized void waited(Entry entry, long since) {
        entry.waited += RunClock.since(since);
    }

    /** Every start so far, in the order the JVMs were begun. */
    public synchronized List<Start> starts() {
        return entries.stream().filter(Entry::ready).sorted(Comparator.comparingLong(e -> e.begun))
                .map(e -> new Start(e.spec.name(), e.seconds, Math.min(e.waited, e.seconds))).toList();
    }

    /** How long the JVM of that server JVM's turn took to start; NaN before it has. */
    public synchronized double seconds(String name) {
        return entries.stream().filter(e -> e.spec.name().equals(name) && e.ready()).mapToDouble(e -> e.seconds).findFirst().orElse(Double.NaN);
    }

    /** Stops whatever is still running: JVMs started for turns that never came, and the stops in progress. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        join(starter);
        settle();
        List<Thread> stops;
        synchronized (this) {
            entries.stream().filter(e -> !e.done).forEach(this::end);
            stops = List.copyOf(stopping);
        }
        stops.forEach(ServerStarts::join);
    }

    /** The starter: begins the next JVM while the window has room for it and few enough wait for their turn. */
    private void startAhead() {
        while (true) {
            Entry next = null;
            synchronized (this) {
                while (!closed && (next = nextToStart()) == null) {
                    long room = openUntil - System.nanoTime() - ROOM.toNanos();
                    waitFor(room > 0 ? Math.max(room / 1_000_000, 1) : 1000);
                }
                if (closed) {
                    return;
                }
                begin(next);
            }
            launch(next);
        }
    }

    private Entry nextToStart() {
        if (openUntil - System.nanoTime() < ROOM.toNanos()) {
            return null;
        }
        long waiting = entries.stream().filter(e -> e.ready() && !e.taken).count();
        if (waiting >= AHEAD || entries.stream().anyMatch(e -> e.server != null && !e.server.isDone())) {
            return null;
        }
        return entries.stream().filter(e -> e.server == null).findFirst().orElse(null);
    }

    private void begin(Entry entry) {
        entry.server = new CompletableFuture<>();
        entry.begun = System.nanoTime();
    }

    private void launch(Entry entry) {
        ServerRun.Spec spec = entry.spec;
        try {
            LabServer server = spec.cpuQuota() == null ? LabServer.start(spec.jdk(), spec.commandLine(), Map.of(), logs, spec.name())
                    : LabServer.startInCpuQuota(spec.jdk(), spec.cpuQuota(), spec.commandLine(), Map.of(), logs, spec.name());
            finish(entry);
            entry.server.complete(server);
        } catch (RuntimeException e) {
            finish(entry);
            entry.server.completeExceptionally(e);
        }
    }

    private synchronized void finish(Entry entry) {
        entry.seconds = RunClock.since(entry.begun);
        notifyAll();
    }

    /** Ends an entry's turn: its JVM, if one started, stops in the background. */
    private void end(Entry entry) {
        entry.done = true;
        if (entry.ready() && !entry.server.isCompletedExceptionally()) {
            LabServer server = entry.server.join();
            stopping.add(Thread.ofPlatform().name("stop-" + entry.spec.name()).start(() -> {
                server.stop(STOP_GRACE);
                server.close();
            }));
        }
    }

    private void waitFor(long millis) {
        try {
            wait(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }

    private static void join(Thread thread) {
        try {
            thread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
