package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Set;

import org.junit.jupiter.api.Test;

class ThreadDumpTest {

    @Test
    void jdk21DumpsMarkNoVirtualThreadSoPlatformIdsTellThemApartAndOnlyUnstartedOnesCountAsWaiting() {
        // main, Signal Dispatcher and the two carriers are the platform threads of the trimmed dump
        ThreadDump dump = ThreadDump.parse(Fixtures.read("dump-jdk21-pinned.json"), Set.of(1L, 11L, 23L, 87L));
        assertThat(dump.recordsState()).isFalse();
        List<ThreadDump.Thread> waiting = dump.threads().stream().filter(t -> t.waitingForCarrier(false)).toList();
        assertThat(waiting).hasSize(3).allMatch(t -> t.virtual() && t.stack().isEmpty());
        List<ThreadDump.Thread> pinned = dump.threads().stream().filter(t -> t.virtual() && Stacks.blockedOnCarrier(t.stack())).toList();
        assertThat(pinned).hasSize(2);
        assertThat(new Stacks(List.of()).applicationFrame(pinned.get(0).stack())).map(Frame::qualifiedMethod).hasValue("Target.holdMonitor");
        assertThat(pinned.get(0).monitorOwners()).as("JDK 21 records no owned monitors").isEmpty();
        assertThat(dump.threads()).filteredOn(t -> t.name().equals("Signal Dispatcher")).singleElement()
                .satisfies(t -> assertThat(t.waitingForCarrier(false)).as("a platform thread with no Java frames").isFalse());
    }

    @Test
    void jdk25DumpsNameTheCarrierTheStateAndTheFrameOwningTheMonitor() {
        ThreadDump dump = ThreadDump.parse(Fixtures.read("dump-jdk25-legacy-locking-pinned.json"), Set.of());
        assertThat(dump.recordsState()).isTrue();
        List<ThreadDump.Thread> mounted = dump.threads().stream().filter(t -> t.virtual() && t.carrier() != null).toList();
        assertThat(mounted).hasSize(2).allMatch(t -> Stacks.blockedOnCarrier(t.stack()));
        assertThat(mounted.get(0).monitorOwners()).extracting(Frame::qualifiedMethod).containsExactly("Target.work");
        assertThat(dump.threads()).filteredOn(t -> t.waitingForCarrier(true)).hasSize(3)
                .allMatch(t -> "RUNNABLE".equals(t.state()) && t.carrier() == null);
        assertThat(mounted.get(0).time()).as("each thread's own time").isAfter(dump.time());
    }

    @Test
    void jdk27WritesIdsAsNumbers() {
        ThreadDump dump = ThreadDump.parse(Fixtures.read("dump-jdk27-cpu.json"), Set.of());
        List<ThreadDump.Thread> running = dump.threads().stream().filter(t -> t.virtual() && t.carrier() != null).toList();
        assertThat(running).hasSize(2).noneMatch(t -> Stacks.blockedOnCarrier(t.stack()));
        assertThat(running.get(0).id()).isPositive();
        assertThat(new Stacks(List.of()).applicationFrame(running.get(0).stack())).map(Frame::qualifiedMethod).hasValue("Target.work");
    }
}
