package io.starvationlab.downstream;

/** One kind of downstream call that takes {@code ms} to answer. */
public interface DownstreamClient {

    Downstream kind();

    void call(int ms, Cancellation cancellation) throws Exception;
}
