package io.starvationlab.downstream;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.runtime.Startup;

/** A remote call with no connection limit, played by {@code Thread.sleep}. */
@Startup
@ApplicationScoped
public class SleepClient implements DownstreamClient {

    @Override
    public Downstream kind() {
        return Downstream.SLEEP;
    }

    @Override
    public void awaitAnswer(int ms, CallGuard guard) throws Exception {
        guard.interruptible(() -> {
            Thread.sleep(ms);
            return null;
        });
    }
}
