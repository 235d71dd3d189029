package io.starvationlab.downstream;

import java.util.Locale;

/** What a unit of work waits on. */
public enum Downstream {
    /** {@code SELECT pg_sleep(?)} through the Agroal pool. */
    DB,
    /** {@code Thread.sleep}: a remote call with no connection limit. */
    SLEEP;

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
