package io.starvationlab.diagnose;

/** What holds the carriers, in the words every stage of the diagnosis uses: the reading of stacks, the verdict and the report. */
enum Cause {
    SYNCHRONIZED("pinned in synchronized"),
    UPCALL("pinned under a native frame"),
    NATIVE_CALL("blocked in a native call"),
    CLASS_INIT("blocked in a class initializer"),
    CLASS_INIT_WAIT("waiting for another thread's class initialization"),
    CLASS_LOADING("blocked loading a class"),
    PINNED("pinned"),
    POLLER("poller"),
    CPU_BOUND("CPU-bound"),
    DEADLOCK("deadlocked on carriers"),
    UNNAMED("cause not named"),
    NONE("none");

    final String words;

    Cause(String words) {
        this.words = words;
    }
}
