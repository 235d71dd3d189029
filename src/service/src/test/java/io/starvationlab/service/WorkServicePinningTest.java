package io.starvationlab.service;

import java.util.List;
import java.util.Map;

import jakarta.inject.Inject;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledForJreRange;
import org.junit.jupiter.api.condition.JRE;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import io.quarkus.test.junit.QuarkusTest;
import io.quarkus.test.junit.virtual.ShouldNotPin;
import io.quarkus.test.junit.virtual.ShouldPin;
import io.quarkus.test.junit.virtual.VirtualThreadUnit;

/** Which modes pin, as JFR sees it while the service's own code runs on a virtual thread. */
@QuarkusTest
@VirtualThreadUnit
class WorkServicePinningTest {

    @Inject
    WorkService work;

    /**
     * One test for every mode that must not pin here (each test waits about 2 s for JFR's stream to deliver its start and stop):
     * unpinned and reentrant waiting on the database, unpinned sleeping, and pinned from JDK 24 (JEP 491).
     * Any pin fails it, with the stack of the mode that pinned.
     */
    @Test
    @ShouldNotPin
    void unpinnedReentrantAndFromJdk24PinnedShouldNotPin() throws Exception {
        runOnVirtualThread("unpinned", "db");
        runOnVirtualThread("unpinned", "sleep");
        runOnVirtualThread("reentrant", "db");
        if (Runtime.version().feature() >= 24) {
            runOnVirtualThread("pinned", "sleep");
        }
    }

    @Test
    @ShouldPin
    @EnabledForJreRange(max = JRE.JAVA_23, disabledReason = "JDK 24+ unmounts inside synchronized (JEP 491)")
    void pinnedShouldPinBeforeJdk24() throws Exception {
        runOnVirtualThread("pinned", "sleep");
    }

    @ParameterizedTest
    @ValueSource(strings = { "db", "sleep" })
    @ShouldPin
    @EnabledForJreRange(min = JRE.JAVA_22, disabledReason = "FFM, and so the native mode, is final from JDK 22")
    void nativeShouldPinWhateverItWaitsOn(String downstream) throws Exception {
        runOnVirtualThread("native", downstream);
    }

    private void runOnVirtualThread(String mode, String downstream) throws Exception {
        WorkRequest request = WorkRequest.parse(mode, Map.of("downstream", List.of(downstream), "ms", List.of("60")), 100, 30_000);
        Throwable[] failure = new Throwable[1];
        Thread.ofVirtual().start(() -> {
            try {
                work.run(request, Cancellation.create());
            } catch (Throwable e) {
                failure[0] = e;
            }
        }).join();
        if (failure[0] != null) {
            throw new AssertionError("the " + mode + " work failed", failure[0]);
        }
    }
}
