package io.starvationlab.downstream;

/** One kind of downstream call that takes {@code ms} to answer. */
public interface DownstreamClient {

    Downstream kind();

    /** Makes the call and waits {@code ms} for its answer, unless the caller abandons it. */
    void awaitAnswer(int ms, CallGuard guard) throws Exception;
}
