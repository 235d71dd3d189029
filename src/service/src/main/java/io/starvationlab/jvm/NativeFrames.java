package io.starvationlab.jvm;

import java.util.List;
import java.util.Optional;

import jakarta.enterprise.context.ApplicationScoped;

import io.quarkus.runtime.ImageMode;
import io.quarkus.runtime.Startup;
import io.starvationlab.model.JdkFacts;

/**
 * Finds the FFM implementation of {@link NativeFrame}. It is compiled at release 22 (FFM is final
 * there) and loaded only on a JDK that has FFM, so the rest of the service runs on JDK 21.
 */
@Startup
@ApplicationScoped
public class NativeFrames {

    private static final String IMPLEMENTATION = "io.starvationlab.jvm.UpcallNativeFrame";

    private final NativeFrame frame;
    private final String unavailableReason;

    public NativeFrames() {
        NativeFrame loaded = null;
        String reason = null;
        if (!JdkFacts.current(List.of()).nativePinAvailable()) {
            reason = "JDK " + Runtime.version().feature() + " has no final FFM API; run on JDK 22 or newer";
        } else if (ImageMode.current() == ImageMode.NATIVE_RUN) {
            reason = "FFM upcalls are not registered in this native image; run the JVM image";
        } else {
            try {
                loaded = (NativeFrame) Class.forName(IMPLEMENTATION, true, NativeFrames.class.getClassLoader())
                        .getDeclaredConstructor().newInstance();
            } catch (ClassNotFoundException e) {
                reason = "this build was made on a JDK older than 22, without the FFM upcall";
            } catch (ReflectiveOperationException | LinkageError | RuntimeException e) {
                reason = "the FFM upcall could not be linked: " + e;
            }
        }
        this.frame = loaded;
        this.unavailableReason = reason;
    }

    public Optional<NativeFrame> frame() {
        return Optional.ofNullable(frame);
    }

    /** Why the native mode is unavailable, or null when it is available. */
    public String unavailableReason() {
        return unavailableReason;
    }
}
