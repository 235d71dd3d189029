package io.starvationlab.rest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import jakarta.inject.Singleton;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;

import org.eclipse.microprofile.config.inject.ConfigProperty;

import io.quarkus.runtime.Startup;
import io.smallrye.common.annotation.Blocking;
import io.starvationlab.admission.EventLoops;
import io.starvationlab.config.LabConfig;
import io.starvationlab.database.EmbeddedDatabase;
import io.starvationlab.downstream.DownstreamGateway;
import io.starvationlab.jvm.ContainerLimits;
import io.starvationlab.jvm.JvmFacts;
import io.starvationlab.jvm.NativeFrames;
import io.starvationlab.observe.PinningMonitor;
import io.starvationlab.observe.PinningReport;
import io.starvationlab.service.InvalidRequestException;
import io.starvationlab.service.Mode;

/**
 * Lab introspection. Served on the worker pool so it answers while virtual threads starve.
 */
@Singleton
@Startup
@Path("/lab")
@Produces(MediaType.APPLICATION_JSON)
@Blocking
public class LabResource {

    private final JvmFacts jvm;
    private final NativeFrames nativeFrames;
    private final DownstreamGateway downstream;
    private final EmbeddedDatabase embedded;
    private final PinningMonitor pinning;
    private final LabConfig config;
    private final int workerThreads;
    private final EventLoops eventLoops;

    public LabResource(JvmFacts jvm, NativeFrames nativeFrames, DownstreamGateway downstream, EmbeddedDatabase embedded,
            PinningMonitor pinning, LabConfig config, EventLoops eventLoops,
            @ConfigProperty(name = "quarkus.thread-pool.max-threads") Optional<Integer> workerThreads) {
        // Quarkus's default: max(8 x processors, 200)
        this.workerThreads = workerThreads.orElse(Math.max(8 * Runtime.getRuntime().availableProcessors(), 200));
        this.jvm = jvm;
        this.nativeFrames = nativeFrames;
        this.downstream = downstream;
        this.embedded = embedded;
        this.pinning = pinning;
        this.config = config;
        this.eventLoops = eventLoops;
    }

    @GET
    @Path("/info")
    public LabInfo info() {
        Map<String, Integer> permits = new LinkedHashMap<>();
        downstream.permitLimits().forEach((kind, size) -> permits.put(kind.label(), size));
        ContainerLimits container = ContainerLimits.ofThisProcess();
        return new LabInfo(jvm.javaVersion(), System.getProperty("java.vendor"), jvm.availableProcessors(),
                jvm.carrierParallelism(), jvm.carrierMaxPoolSize(), jvm.lockingMode(), jvm.synchronizedPins(),
                nativeFrames.frame().isPresent(), nativeFrames.unavailableReason(), config.downstream().permits(), permits,
                downstream.poolMaxSize(), workerThreads, Mode.labels(), embedded.running(), config.canary().enabled(),
                config.pinning().enabled(), jvm.jvmArguments(), eventLoops.count(), container.cgroupVersion(),
                container.cpuQuotaMicros(), container.cpuPeriodMicros(), container.effectiveCpuCount(), container.memoryLimitBytes(),
                jvm.garbageCollector(), jvm.virtualPollers());
    }

    @GET
    @Path("/pinning")
    public PinningReport pinning(@QueryParam("reset") String reset) {
        if (reset != null && !reset.equals("true") && !reset.equals("false")) {
            throw new InvalidRequestException("reset", "must be true or false", List.of("true", "false"));
        }
        return pinning.report("true".equals(reset));
    }
}
