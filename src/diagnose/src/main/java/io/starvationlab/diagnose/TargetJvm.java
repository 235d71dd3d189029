package io.starvationlab.diagnose;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.OperatingSystemMXBean;
import java.lang.management.RuntimeMXBean;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import javax.management.Attribute;
import javax.management.AttributeList;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import io.starvationlab.model.JdkFacts;

/**
 * The JVM under diagnosis, through one JMX connection: attached by process id (the Attach API starts
 * the JVM's local, loopback-only management agent, as jconsole does) or connected to a JMX address.
 * Everything is read generically through the connection, so the tool compiles at release 21 and reads
 * what each JDK has: the scheduler MXBean exists from JDK 24, and is looked up by name.
 */
final class TargetJvm implements AutoCloseable {

    static final ObjectName SCHEDULER = name("jdk.management:type=VirtualThreadScheduler");
    private static final ObjectName DIAGNOSTIC_COMMAND = name("com.sun.management:type=DiagnosticCommand");
    private static final ObjectName HOTSPOT_DIAGNOSTIC = name("com.sun.management:type=HotSpotDiagnostic");
    private static final ObjectName FLIGHT_RECORDER = name("jdk.management.jfr:type=FlightRecorder");
    private static final Duration CONNECT_TIMEOUT = Duration.ofSeconds(30);

    /**
     * What the JVM says of itself.
     *
     * @param pid                  its process id, as it knows it (inside a container, the container's)
     * @param parallelismProperty  {@code jdk.virtualThreadScheduler.parallelism}, or null when not set
     * @param maxPoolSizeProperty  {@code jdk.virtualThreadScheduler.maxPoolSize}, or null when not set
     * @param pollerModeProperty   {@code jdk.pollerMode}, or null when not set
     * @param lockingMode          {@code -XX:LockingMode}, or null on a JVM without the flag
     */
    record Facts(long pid, String version, String vendor, int feature, String osName, int availableProcessors, String parallelismProperty,
            String maxPoolSizeProperty, String pollerModeProperty, Integer lockingMode, String tmpdir, Instant startTime) {

        String describe() {
            return "JDK " + version + " (" + vendor + ")";
        }

        /** Whether the I/O pollers are virtual threads, as {@link JdkFacts#virtualPollers} says of this JVM. */
        boolean virtualPollers() {
            return JdkFacts.virtualPollers(feature, osName, pollerModeProperty);
        }
    }

    private final JMXConnector connector;
    private final MBeanServerConnection connection;
    private final Long attachedPid;
    private final Facts facts;
    private final String address;
    private int dumps;
    private ThreadMXBean threads;

    private TargetJvm(JMXConnector connector, Long attachedPid, String address) throws IOException {
        this.connector = connector;
        this.connection = connector.getMBeanServerConnection();
        this.attachedPid = attachedPid;
        this.address = address;
        this.facts = readFacts();
    }

    /** Attaches to {@code options.pid()} or connects to {@code options.jmx()}; fails with a message a user can act on. */
    static TargetJvm connect(Options options) throws IOException {
        if (options.pid() != null) {
            String url;
            try {
                VirtualMachine vm = VirtualMachine.attach(String.valueOf(options.pid()));
                try {
                    url = vm.startLocalManagementAgent();
                } finally {
                    vm.detach();
                }
            } catch (AttachNotSupportedException e) {
                throw new IOException("cannot attach to pid " + options.pid() + " (a JVM of this user, with attach enabled?): " + e.getMessage(), e);
            }
            return new TargetJvm(connectWithin(new JMXServiceURL(url)), options.pid(), "pid " + options.pid());
        }
        return new TargetJvm(connectWithin(serviceUrl(options.jmx())), null, "JMX " + options.jmx());
    }

    /** {@code host:port} is the JMX agent's RMI registry ({@code -Dcom.sun.management.jmxremote.port}); a {@code service:jmx:} URL is taken as is. */
    static JMXServiceURL serviceUrl(String address) throws IOException {
        if (address.startsWith("service:jmx:")) {
            return new JMXServiceURL(address);
        }
        int colon = address.lastIndexOf(':');
        if (colon <= 0 || colon == address.length() - 1) {
            throw new IOException("--jmx takes host:port or a service:jmx: URL, not " + address);
        }
        return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + address + "/jmxrmi");
    }

    /** RMI has no connect timeout of its own worth waiting for: an address that does not answer fails here. */
    private static JMXConnector connectWithin(JMXServiceURL url) throws IOException {
        var executor = Executors.newSingleThreadExecutor(Thread.ofPlatform().daemon().factory());
        Future<JMXConnector> connecting = executor.submit(() -> JMXConnectorFactory.connect(url));
        try {
            return connecting.get(CONNECT_TIMEOUT.toSeconds(), TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new IOException("cannot connect to " + url + ": " + e.getCause(), e.getCause());
        } catch (TimeoutException e) {
            connecting.cancel(true);
            throw new IOException("no JMX answer from " + url + " within " + CONNECT_TIMEOUT.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while connecting", e);
        } finally {
            executor.shutdown();
        }
    }

    private Facts readFacts() throws IOException {
        RuntimeMXBean runtime = ManagementFactory.newPlatformMXBeanProxy(connection, ManagementFactory.RUNTIME_MXBEAN_NAME, RuntimeMXBean.class);
        OperatingSystemMXBean os = ManagementFactory.newPlatformMXBeanProxy(connection, ManagementFactory.OPERATING_SYSTEM_MXBEAN_NAME,
                OperatingSystemMXBean.class);
        Map<String, String> properties = runtime.getSystemProperties();
        String version = properties.getOrDefault("java.runtime.version", runtime.getSpecVersion());
        return new Facts(runtime.getPid(), version, properties.getOrDefault("java.vendor", "unknown vendor"), JdkFacts.feature(version),
                os.getName(), os.getAvailableProcessors(), properties.get("jdk.virtualThreadScheduler.parallelism"),
                properties.get("jdk.virtualThreadScheduler.maxPoolSize"), properties.get("jdk.pollerMode"), lockingMode(),
                properties.getOrDefault("java.io.tmpdir", "/tmp"), Instant.ofEpochMilli(runtime.getStartTime()));
    }

    private Integer lockingMode() {
        try {
            CompositeData option = (CompositeData) connection.invoke(HOTSPOT_DIAGNOSTIC, "getVMOption", new Object[] {"LockingMode"},
                    new String[] {String.class.getName()});
            return Integer.valueOf((String) option.get("value"));
        } catch (JMException | IOException | RuntimeException e) {
            return null; // JDK 26 dropped the flag; other VMs never had it
        }
    }

    Facts facts() {
        return facts;
    }

    String address() {
        return address;
    }

    /** {@code jcmd Thread.print}: every platform thread, and for each carrier the virtual thread it carries. */
    String threadPrint() throws IOException {
        return (String) diagnosticCommand("threadPrint", new String[0]);
    }

    /** The scheduler MXBean's attributes (JDK 24+), or empty where the JVM has none. */
    Optional<Map<String, Object>> scheduler() throws IOException {
        try {
            if (!connection.isRegistered(SCHEDULER)) {
                return Optional.empty();
            }
            AttributeList list = connection.getAttributes(SCHEDULER,
                    new String[] {"Parallelism", "PoolSize", "MountedVirtualThreadCount", "QueuedVirtualThreadCount"});
            Map<String, Object> values = new LinkedHashMap<>();
            for (Attribute attribute : list.asList()) {
                values.put(attribute.getName(), attribute.getValue());
            }
            return Optional.of(values);
        } catch (JMException e) {
            throw new IOException("reading " + SCHEDULER + ": " + e, e);
        }
    }

    /** How far the target's clock is ahead of this machine's: its start time plus its uptime, against the middle of the call. */
    Duration clockAhead() throws IOException {
        try {
            Instant before = Instant.now();
            long uptime = ((Number) connection.getAttribute(new ObjectName(ManagementFactory.RUNTIME_MXBEAN_NAME), "Uptime")).longValue();
            Instant here = before.plus(Duration.between(before, Instant.now()).dividedBy(2));
            return Duration.between(here, facts.startTime().plusMillis(uptime));
        } catch (JMException e) {
            throw new IOException("reading the target's uptime: " + e, e);
        }
    }

    boolean hasFlightRecorder() throws IOException {
        return connection.isRegistered(FLIGHT_RECORDER);
    }

    /** The ids of the JVM's platform threads: a thread of a dump that is not one of them is virtual. */
    long[] platformThreadIds() throws IOException {
        if (threads == null) {
            threads = ManagementFactory.newPlatformMXBeanProxy(connection, ManagementFactory.THREAD_MXBEAN_NAME, ThreadMXBean.class);
        }
        return threads.getAllThreadIds();
    }

    /**
     * Whether the target's thread dumps can be read here: it writes them to its own filesystem, so only
     * when it runs on this machine (attached by pid, or a JMX address whose JVM has a local process of the
     * same pid and start time). Empty when they can; otherwise why not.
     */
    Optional<String> whyNoThreadDumps(boolean wanted) {
        if (!wanted) {
            return Optional.of("not asked for (--no-thread-dumps)");
        }
        if (attachedPid != null) {
            return Optional.empty();
        }
        boolean local = ProcessHandle.of(facts.pid()).flatMap(handle -> handle.info().startInstant())
                .map(start -> Duration.between(start, facts.startTime()).abs().compareTo(Duration.ofSeconds(2)) < 0)
                .orElse(false);
        return local ? Optional.empty()
                : Optional.of("the JVM writes them to its own filesystem, which this machine does not see (a JVM on another machine or in a pod)");
    }

    /**
     * {@code jcmd Thread.dump_to_file -format=json} into the target's temporary directory, read from here
     * (through {@code /proc/<pid>/root} when the target sees another filesystem, as in a container) and
     * deleted; empty when the file cannot be found.
     */
    Optional<String> threadDumpJson() throws IOException {
        String name = "starvation-diagnose-" + UUID.randomUUID() + "-" + (++dumps) + ".json";
        String path = Path.of(facts.tmpdir(), name).toString();
        String answer = String.valueOf(diagnosticCommand("threadDumpToFile", new String[] {"-format=json", path}));
        for (Path candidate : new Path[] {Path.of(path), Path.of("/proc", String.valueOf(attachedPid == null ? facts.pid() : attachedPid), "root", path)}) {
            try {
                if (Files.isRegularFile(candidate)) {
                    String json = Files.readString(candidate);
                    Files.deleteIfExists(candidate);
                    return Optional.of(json);
                }
            } catch (IOException | SecurityException e) {
                // try the next place
            }
        }
        if (!answer.contains("Created")) {
            throw new IOException("the JVM did not write a thread dump: " + answer.strip());
        }
        return Optional.empty();
    }

    MBeanServerConnection connection() {
        return connection;
    }

    private Object diagnosticCommand(String operation, String[] arguments) throws IOException {
        try {
            return connection.invoke(DIAGNOSTIC_COMMAND, operation, new Object[] {arguments}, new String[] {String[].class.getName()});
        } catch (JMException e) {
            throw new IOException("the JVM refused " + operation + ": " + e, e);
        }
    }

    private static ObjectName name(String name) {
        try {
            return new ObjectName(name);
        } catch (JMException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException e) {
            // the target may have gone; nothing to release here
        }
    }
}
