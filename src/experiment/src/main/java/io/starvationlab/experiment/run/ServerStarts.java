package io.starvationlab.experiment.run;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

import io.starvationlab.harness.LabServer;

/**
 * The job's server JVMs, each started once per configuration and ahead of its turn where that costs no
 * measurement anything. A JVM starting is not load, one running load is: a start runs beside a phase only
 * while the run holds a window open ({@link #open}: a load that holds the carriers in a wait and uses next to
 * no CPU), and whatever else runs (a baseline, a warm-up, any other load) first waits for the start in
 * progress ({@link #settle}). A server JVM of the same JDK, command line and quota as one planned before is
 * that JVM: it runs both turns and stops, in the background, after the last.
 */
public final class ServerStarts implements AutoCloseable {

    /** At most this many started JVMs wait for their turn. */
    private static final int AHEAD = 3;
    /** A start begins only while the open window has at least this long to run: about what a start takes on two cores. */
    private static final Duration ROOM = Duration.ofSeconds(4);

    /** One server JVM's start: how long it took, and how much of that the run waited for (the rest ran beside a phase). */
    public record Start(String name, double seconds, double waitedSeconds) {
    }

    /** A configuration to start: the server JVMs that share it, by name, and its process once begun. */
    private static final class Entry {
        final ServerRun.Spec spec;
        final List<String> turns = new ArrayList<>();
        CompletableFuture<LabServer> server;
        long begun;
        double seconds;
        double waited;
        int taken;
        int done;

        Entry(ServerRun.Spec spec) {
            this.spec = spec;
            turns.add(spec.name());
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

    /**
     * Plans a server JVM's turn, after those planned before; returns the name of the server JVM it shares a process
     * with, when one of the same configuration was planned before and is still to run.
     */
    public synchronized Optional<String> plan(ServerRun.Spec spec) {
        for (Entry entry : entries) {
            if (entry.done < entry.turns.size() && entry.spec.sameConfiguration(spec)) {
                entry.turns.add(spec.name());
                return Optional.of(entry.turns.getFirst());
            }
        }
        entries.add(new Entry(spec));
        notifyAll();
        return Optional.empty();
    }

    /** The server JVM of {@code spec}'s turn: started beside an earlier phase, or now; waiting for a start in progress. */
    public LabServer take(ServerRun.Spec spec) {
        Entry entry;
        boolean startHere;
        synchronized (this) {
            entry = entries.stream().filter(e -> e.turns.contains(spec.name())).findFirst().orElseGet(() -> {
                Entry unplanned = new Entry(spec);
                entries.add(unplanned);
                return unplanned;
            });
            startHere = entry.server == null;
            if (startHere) {
                begin(entry);
            }
            entry.taken++;
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
            synchronized (this) {
                entry.waited += (System.nanoTime() - waiting) / 1e9;
            }
        }
    }

    /** {@code spec}'s turn is over: after the last turn on its process, the JVM stops in the background. */
    public synchronized void done(ServerRun.Spec spec) {
        for (Entry entry : entries) {
            if (entry.turns.contains(spec.name()) && ++entry.done == entry.turns.size() && entry.ready() && !entry.server.isCompletedExceptionally()) {
                LabServer server = entry.server.join();
                stopping.add(Thread.ofPlatform().name("stop-" + spec.name()).start(server::close));
                return;
            }
        }
    }

    /** Starts may run beside what the run does until {@code until}: a load that holds the carriers in a wait. */
    public synchronized void open(Duration until) {
        openUntil = System.nanoTime() + until.toNanos();
        notifyAll();
    }

    /** Closes the window and waits for the start in progress and the stops: nothing runs beside what comes next. */
    public void settle() {
        List<Entry> starting;
        List<Thread> stops;
        synchronized (this) {
            openUntil = 0;
            starting = entries.stream().filter(e -> e.server != null && !e.server.isDone()).toList();
            stops = List.copyOf(stopping);
        }
        for (Entry entry : starting) {
            long waiting = System.nanoTime();
            entry.server.handle((server, failure) -> server).join();
            synchronized (this) {
                entry.waited += (System.nanoTime() - waiting) / 1e9;
            }
        }
        for (Thread stop : stops) {
            try {
                stop.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException(e);
            }
        }
    }

    /** Every start so far, in the order the JVMs were begun. */
    public synchronized List<Start> starts() {
        return entries.stream().filter(e -> e.server != null && e.server.isDone())
                .sorted(Comparator.comparingLong(e -> e.begun))
                .map(e -> new Start(String.join(" + ", e.turns), e.seconds, Math.min(e.waited, e.seconds))).toList();
    }

    /** How long the JVM of that server JVM's turn took to start; NaN before it has. */
    public synchronized double seconds(String name) {
        return entries.stream().filter(e -> e.turns.contains(name) && e.ready()).mapToDouble(e -> e.seconds).findFirst().orElse(Double.NaN);
    }

    /** Stops whatever is still running: JVMs started for turns that never came, and the stops in progress. */
    @Override
    public void close() {
        synchronized (this) {
            closed = true;
            notifyAll();
        }
        try {
            starter.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        List<Entry> left;
        synchronized (this) {
            left = entries.stream().filter(e -> e.server != null && e.done < e.turns.size()).toList();
            entries.forEach(e -> e.done = e.turns.size());
        }
        left.forEach(e -> e.server.thenAccept(LabServer::close));
        settle();
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
        long waiting = entries.stream().filter(e -> e.ready() && e.taken == 0).count();
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
        entry.seconds = (System.nanoTime() - entry.begun) / 1e9;
        notifyAll();
    }

    private void waitFor(long millis) {
        try {
            wait(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            closed = true;
        }
    }
}
