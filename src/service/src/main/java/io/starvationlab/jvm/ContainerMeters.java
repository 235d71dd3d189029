package io.starvationlab.jvm;

import java.util.function.Function;

import jakarta.enterprise.context.ApplicationScoped;
import jakarta.enterprise.event.Observes;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.quarkus.runtime.StartupEvent;

/**
 * The one place the {@code lab.container.*} and {@code lab.jvm.*} meters are named: what the JVM sees
 * of its container, and the collector it chose. A limit the container does not set has no series, as
 * Kubernetes' own metrics leave out a limit that is not set; each gauge reads the cgroup files again
 * when it is scraped. {@code system.cpu.count} (Micrometer) is {@code availableProcessors()}.
 */
@ApplicationScoped
public class ContainerMeters {

    private static final double MICROS = 1e-6;

    private final MeterRegistry registry;
    private final JvmFacts jvm;

    public ContainerMeters(MeterRegistry registry, JvmFacts jvm) {
        this.registry = registry;
        this.jvm = jvm;
    }

    void register(@Observes StartupEvent event) {
        ContainerLimits limits = ContainerLimits.ofThisProcess();
        if (limits.cpuQuotaMicros() != null) {
            gauge("lab.container.cpu.quota", "CPU time the container may use per period (its CPU limit times the period)",
                    "seconds", now -> now.cpuQuotaMicros() == null ? Double.NaN : now.cpuQuotaMicros() * MICROS);
            gauge("lab.container.cpu.period", "The period of the container's CPU quota", "seconds",
                    now -> now.cpuPeriodMicros() == null ? Double.NaN : now.cpuPeriodMicros() * MICROS);
        }
        gauge("lab.container.cpus", "CPUs the JVM sees: those it may run on, capped at the CPU quota rounded up", null,
                ContainerLimits::effectiveCpuCount);
        if (limits.memoryLimitBytes() != null) {
            gauge("lab.container.memory.limit", "The container's memory limit", "bytes",
                    now -> now.memoryLimitBytes() == null ? Double.NaN : now.memoryLimitBytes());
        }
        Gauge.builder("lab.jvm.garbage.collector", () -> 1)
                .description("The garbage collector this JVM runs, as a label; always 1")
                .tag("collector", jvm.garbageCollector())
                .register(registry);
    }

    private void gauge(String name, String description, String unit, Function<ContainerLimits, Number> value) {
        Gauge.builder(name, () -> value.apply(ContainerLimits.ofThisProcess())).description(description).baseUnit(unit).register(registry);
    }
}
