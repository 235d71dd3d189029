package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;

import org.junit.jupiter.api.Test;

class CarriersTest {

    private final List<Carriers.PlatformThread> threads = Carriers.parse(Fixtures.read("thread-print-jdk21.txt"));

    @Test
    void shouldReadWhatEachCarrierCarriesAndItsCpuTime() {
        assertThat(threads).extracting(Carriers.PlatformThread::name)
                .containsExactly("main", "Signal Dispatcher", "ForkJoinPool-1-worker-1", "ForkJoinPool-1-worker-2", "ForkJoinPool-1-worker-3");
        Carriers.PlatformThread first = threads.get(2);
        assertThat(first.id()).isEqualTo(23);
        assertThat(first.carrying()).isEqualTo(162L);
        assertThat(first.cpuMillis()).isEqualTo(6.36);
        assertThat(threads.get(4).carrying()).as("an idle carrier").isNull();
        assertThat(threads.get(0).carrying()).isNull();
    }

    @Test
    void shouldFindTheSchedulerPoolFromTheThreadsSeenCarrying() {
        assertThat(Carriers.poolPrefix(threads)).hasValue("ForkJoinPool-1-worker-");
        assertThat(Carriers.ofPool(threads, "ForkJoinPool-1-worker-")).hasSize(3);
        assertThat(Carriers.poolPrefix(threads.subList(0, 2))).as("nothing carried").isEmpty();
    }
}
