package io.starvationlab.jvm;

import java.util.concurrent.Callable;

/**
 * Runs code with a native frame below it on the stack, so a virtual thread that blocks in it
 * cannot unmount and holds its carrier.
 */
public interface NativeFrame {

    /** Calls {@code body} from inside a native call; what it throws is rethrown here, after the native frame returned. */
    <T> T callInside(Callable<T> body) throws Exception;
}
