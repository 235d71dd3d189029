package io.starvationlab.diagnose;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;

import org.junit.jupiter.api.Test;

class StacksTest {

    /** A pinned episode of an FFM upcall that sleeps, as JFR records it on JDK 25 (method-handle frames trimmed). */
    static final List<Frame> UPCALL = List.of(
            new Frame("java.lang.VirtualThread", "postPinnedEvent", -1, true),
            new Frame("java.lang.VirtualThread", "parkOnCarrierThread", 830, false),
            new Frame("java.lang.Thread", "sleep", 540, false),
            new Frame("com.example.Client", "call", 20, false),
            new Frame("com.example.Native", "compare", 16, false),
            new Frame("jdk.internal.foreign.abi.UpcallStub.0x000000000f218c00", "invoke", -1, false),
            new Frame("java.lang.invoke.LambdaForm$MH.0x000000000f221400", "invokeExact_MT", -1, false),
            new Frame("jdk.internal.foreign.abi.DowncallStub.0x000000000f21d000", "invoke", -1, false),
            new Frame("java.lang.invoke.LambdaForm$MH.0x000000000f220800", "invokeExact_MT", -1, false),
            new Frame("com.example.Native", "callInside", 27, false),
            new Frame("com.example.Service", "handle", 12, false),
            new Frame("java.lang.VirtualThread", "run", 460, false),
            new Frame("jdk.internal.vm.Continuation", "enterSpecial", -1, true));

    /** One carrier of the second service under each of its loads on JDK 25, whose Thread.print shows each mounted thread's stack. */
    @Test
    void whatHoldsEachCarrierAndTheFrameNamedComeFromItsMountedStack() {
        List<Carriers.PlatformThread> carriers = Carriers.parse(Fixtures.read("thread-print-jdk25.txt")).stream().filter(t -> t.carrying() != null).toList();
        Stacks stacks = new Stacks(List.of());
        String app = "example.second.";
        // the last carrier computes: its CPU time, not its stack, tells it from a native call
        assertThat(carriers).extracting(c -> stacks.hold(c.mounted(), !c.name().endsWith("-7"))).extracting(Stacks.Hold::cause, Stacks.Hold::frame, Stacks.Hold::note)
                .containsExactly(
                        tuple(Cause.NATIVE_CALL, app + "NativeWait.sleepInNative", "the native call: jdk.internal.foreign.abi.DowncallStub.invoke"),
                        tuple(Cause.CLASS_INIT, app + "ClassInit$Slow.<clinit>", null),
                        tuple(Cause.CLASS_INIT_WAIT, app + "ClassInit$Trigger.run", "waits for another thread to initialize " + app + "ClassInit$Slow"),
                        tuple(Cause.CLASS_LOADING, app + "ClassInit$Isolated.loadClass", "loading a class for " + app + "ClassInit$Trigger.run"),
                        tuple(Cause.UPCALL, app + "NativeWait.compare", "a native frame is on the stack, below the call from " + app + "NativeWait.call"),
                        tuple(Cause.SYNCHRONIZED, app + "SecondService$LegacyClient.fetch", null),
                        tuple(Cause.CPU_BOUND, app + "SecondService$Checksum.compute", null));
        assertThat(carriers.get(5).mounted().monitorOwners()).extracting(Frame::qualifiedMethod).containsExactly(app + "SecondService$LegacyClient.fetch");
        assertThat(stacks.hold(carriers.get(6).mounted(), true).cause()).as("the same stack on an idle carrier").isEqualTo(Cause.NATIVE_CALL);
    }

    /** Issue 39: under a Spring Boot service the meter's own wrapper was named among the frames. */
    @Test
    void theMetersWrapperAndTheJdksPlumbingAreNeverTheFrame() {
        List<Frame> tomcat = List.of(Frame.ofDumpText("org.apache.tomcat.util.net.NioEndpoint$SocketProcessor.doRun(NioEndpoint.java:1769)"),
                Frame.ofDumpText("org.apache.tomcat.util.net.SocketProcessorBase.run(SocketProcessorBase.java:52)"),
                Frame.ofDumpText("io.starvationlab.meter.CarrierWaitMeter$Handed.run(CarrierWaitMeter.java:210)"),
                Frame.ofDumpText("java.base/java.util.concurrent.ThreadPerTaskExecutor$TaskRunner.run(ThreadPerTaskExecutor.java:314)"),
                Frame.ofDumpText("java.base/java.lang.VirtualThread.run(VirtualThread.java:309)"));
        List<Frame> probe = List.of(Frame.ofDumpText("io.starvationlab.meter.CarrierWaitMeter.lambda$probeEveryInterval$2(CarrierWaitMeter.java:262)"),
                Frame.ofDumpText("java.base/java.lang.VirtualThread.run(VirtualThread.java:309)"));
        Stacks stacks = new Stacks(List.of());
        assertThat(stacks.named(tomcat)).isEqualTo(Stacks.NO_APPLICATION_FRAME);
        assertThat(stacks.named(probe)).isEqualTo(Stacks.NO_APPLICATION_FRAME);
        assertThat(stacks.hold(new Mounted(tomcat, List.of(), null, false, null, null), false).frame()).isEqualTo(Stacks.NO_APPLICATION_FRAME);
    }

    @Test
    void aParkedThreadWaitsForTheLockItsApplicationCalledOrTheMonitorItEnters() {
        Stacks stacks = new Stacks(List.of());
        Stacks.Hold hold = stacks.hold(new Mounted(Observed.WAITING_FOR_A_LOCK, List.of(), null, false,
                "java.util.concurrent.locks.ReentrantLock$NonfairSync@6eb57bfc", "#23 \"owner\", virtual"), true);
        assertThat(hold.cause()).isEqualTo(Cause.SYNCHRONIZED);
        assertThat(hold.waitsFor()).isEqualTo("java.util.concurrent.locks.ReentrantLock.tryLock");
        assertThat(hold.lock()).isEqualTo("java.util.concurrent.locks.ReentrantLock$NonfairSync@6eb57bfc");
        assertThat(hold.lockOwner()).isEqualTo("#23 \"owner\", virtual");
        assertThat(stacks.hold(new Mounted(UPCALL.subList(1, 4), List.of(), null, false, null, null), true).waitsFor()).as("a sleep waits for nobody").isNull();
        assertThat(stacks.hold(new Mounted(UPCALL.subList(3, 5), List.of(), null, true, "java.lang.Object@0x6a1", null), true))
                .extracting(Stacks.Hold::waitsFor, Stacks.Hold::lock).containsExactly("a monitor", "java.lang.Object@0x6a1");
    }

    @Test
    void theFrameIsTheInnermostOutsideTheJdkFrameworksAndSkippedPrefixes() {
        assertThat(new Stacks(List.of()).applicationFrame(UPCALL)).map(Frame::qualifiedMethod).hasValue("com.example.Client.call");
        assertThat(new Stacks(List.of("com.example.Client")).applicationFrame(UPCALL)).map(Frame::qualifiedMethod).hasValue("com.example.Native.compare");
        assertThat(new Stacks(List.of()).applicationFrame(UPCALL.subList(0, 3))).isEmpty();
    }

    @Test
    void theNativeCallerIsBelowTheTopmostNativeFrameUnderApplicationCode() {
        assertThat(new Stacks(List.of()).nativeCaller(UPCALL)).map(Frame::qualifiedMethod).hasValue("com.example.Native.callInside");
        List<Frame> jni = List.of(UPCALL.get(1), UPCALL.get(3), new Frame("com.example.Jni", "callback", -1, true), UPCALL.get(10));
        assertThat(new Stacks(List.of()).nativeCaller(jni)).as("a JNI method names itself").map(Frame::qualifiedMethod).hasValue("com.example.Jni.callback");
        List<Frame> noNative = List.of(UPCALL.get(1), UPCALL.get(3), UPCALL.get(10), UPCALL.get(12));
        assertThat(new Stacks(List.of()).nativeCaller(noNative)).as("the continuation's own native entry is not a pin").isEmpty();
    }

    @Test
    void socketWaitsAndBlockedCarriersAreRecognised() {
        List<Frame> read = List.of(Frame.ofDumpText("java.base/sun.nio.ch.NioSocketImpl.park(NioSocketImpl.java:174)"),
                Frame.ofDumpText("java.base/sun.nio.ch.NioSocketImpl.read(NioSocketImpl.java:354)"));
        assertThat(Stacks.socketIo(read)).map(Frame::qualifiedMethod).hasValue("sun.nio.ch.NioSocketImpl.park");
        assertThat(Stacks.blockedOnCarrier(List.of(Frame.ofDumpText("java.base/java.lang.Object.wait0(Native Method)")))).as("JDK 21's Object.wait").isTrue();
    }

    @Test
    void dumpFramesKeepClassMethodLineAndNativeness() {
        Frame app = Frame.ofDumpText("app//com.example.Service.handle(Service.java:12)");
        assertThat(app).isEqualTo(new Frame("com.example.Service", "handle", 12, false));
        assertThat(Frame.ofDumpText("java.base/jdk.internal.misc.Unsafe.park(Native Method)"))
                .isEqualTo(new Frame("jdk.internal.misc.Unsafe", "park", -1, true));
        assertThat(Frame.ofDumpText("Target.work(Target.java:15)").describe()).isEqualTo("Target.work:15");
        assertThat(Frame.ofDumpText("\tat java.lang.invoke.LambdaForm$MH/0x000000007b047000.invoke(java.base@25.0.3/LambdaForm$MH)"))
                .as("a Thread.print line, a hidden class").isEqualTo(new Frame("java.lang.invoke.LambdaForm$MH", "invoke", -1, false));
    }

    @Test
    void shownStacksStartPastTheParkMachineryWithoutMethodHandlePlumbing() {
        assertThat(Stacks.top(UPCALL, 4)).extracting(Frame::qualifiedMethod)
                .containsExactly("com.example.Client.call", "com.example.Native.compare", "jdk.internal.foreign.abi.UpcallStub.0x000000000f218c00.invoke",
                        "jdk.internal.foreign.abi.DowncallStub.0x000000000f21d000.invoke");
    }
}
