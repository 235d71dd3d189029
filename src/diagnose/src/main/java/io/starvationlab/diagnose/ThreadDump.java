package io.starvationlab.diagnose;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A JSON thread dump ({@code jcmd Thread.dump_to_file -format=json}, the one view that lists every
 * virtual thread). JDK 21 writes each thread's id, name and stack; JDK 25 adds whether it is virtual,
 * its state, its carrier, the monitors it owns (with the depth of the frame that owns each), what it parks on or
 * waits to lock, and the time it was dumped; later JDKs the owner of a lock it parks on. What a dump lacks is read
 * as unknown, never guessed from the JDK's version.
 *
 * @param time         when the dump was taken
 * @param threads      every thread in every container
 * @param recordsState whether threads carry a state and a carrier (JDK 25+)
 */
record ThreadDump(Instant time, List<Thread> threads, boolean recordsState) {

    /**
     * One thread of the dump.
     *
     * @param carrier       the carrier's id when mounted and the dump says so, else null
     * @param monitorDepths the depths (indexes into {@code stack}) of the frames that own a monitor
     * @param monitors      the monitors it owns, as the dump names them ({@code java.lang.Object@6cdb1ed})
     * @param blocker       what it parks on ({@code parkBlocker}) or waits to enter ({@code blockedOn}), or null
     * @param blockerOwner  the thread that owns what it parks on, where the dump says ({@code exclusiveOwnerThreadId}), or null
     * @param time          when this thread was dumped (JDK 25+), else the dump's time
     */
    record Thread(long id, String name, boolean virtual, String state, Long carrier, List<Frame> stack, List<Integer> monitorDepths,
            List<String> monitors, String blocker, Long blockerOwner, Instant time) {

        /** Waiting for a carrier: runnable and unmounted (JDK 25+), or never run yet (JDK 21: an empty stack). */
        boolean waitingForCarrier(boolean recordsState) {
            if (!virtual) {
                return false;
            }
            return recordsState ? "RUNNABLE".equals(state) && carrier == null : stack.isEmpty();
        }

        /** The frame that owns a monitor, innermost first, where the dump names one. */
        List<Frame> monitorOwners() {
            return monitorDepths.stream().filter(depth -> depth >= 0 && depth < stack.size()).map(stack::get).toList();
        }

        String describe() {
            return "#" + id + (name.isEmpty() ? "" : " \"" + name + "\"") + (virtual ? ", virtual" : "") + (state == null ? "" : ", " + state)
                    + (virtual && carrier == null && "RUNNABLE".equals(state) ? ", waiting for a carrier" : "");
        }
    }

    /** The thread that holds what {@code thread} parks on or waits to enter, where this dump says: empty where it does not. */
    Optional<Thread> owner(Thread thread) {
        if (thread.blocker() == null) {
            return Optional.empty();
        }
        return threads.stream().filter(t -> t.id() != thread.id())
                .filter(t -> thread.blockerOwner() != null ? t.id() == thread.blockerOwner() : t.monitors().contains(thread.blocker())).findFirst();
    }

    /**
     * Parses a dump. {@code platformThreadIds} tells virtual threads apart in a dump that does not mark
     * them (JDK 21): every thread that is not a platform thread is virtual.
     */
    @SuppressWarnings("unchecked")
    static ThreadDump parse(String json, Set<Long> platformThreadIds) {
        Map<String, Object> dump = (Map<String, Object>) ((Map<String, Object>) Json.parse(json)).get("threadDump");
        Instant time = Instant.parse((String) dump.get("time"));
        List<Map<String, Object>> raw = new ArrayList<>();
        for (Object container : (List<Object>) dump.get("threadContainers")) {
            for (Object thread : (List<Object>) ((Map<String, Object>) container).getOrDefault("threads", List.of())) {
                raw.add((Map<String, Object>) thread);
            }
        }
        boolean marksVirtual = raw.stream().anyMatch(t -> t.containsKey("virtual"));
        boolean recordsState = raw.stream().anyMatch(t -> t.containsKey("state"));
        List<Thread> threads = new ArrayList<>(raw.size());
        for (Map<String, Object> t : raw) {
            long id = number(t.get("tid"));
            List<Frame> stack = ((List<Object>) t.getOrDefault("stack", List.of())).stream().map(f -> Frame.ofDumpText((String) f)).toList();
            List<Integer> depths = new ArrayList<>();
            List<String> monitors = new ArrayList<>();
            for (Object owned : (List<Object>) t.getOrDefault("monitorsOwned", List.of())) {
                depths.add((int) number(((Map<String, Object>) owned).get("depth")));
                ((List<Object>) ((Map<String, Object>) owned).getOrDefault("locks", List.of())).forEach(lock -> monitors.add(String.valueOf(lock)));
            }
            Map<String, Object> parkBlocker = (Map<String, Object>) t.get("parkBlocker");
            String blocker = parkBlocker != null ? (String) parkBlocker.get("object") : (String) t.get("blockedOn");
            Object blockerOwner = parkBlocker == null ? null : parkBlocker.get("exclusiveOwnerThreadId");
            boolean virtual = marksVirtual ? Boolean.TRUE.equals(t.get("virtual")) : !platformThreadIds.contains(id);
            Object carrier = t.get("carrier");
            Object threadTime = t.get("time");
            threads.add(new Thread(id, (String) t.getOrDefault("name", ""), virtual, (String) t.get("state"), carrier == null ? null : number(carrier),
                    stack, List.copyOf(depths), List.copyOf(monitors), blocker, blockerOwner == null ? null : number(blockerOwner),
                    threadTime == null ? time : Instant.parse((String) threadTime)));
        }
        return new ThreadDump(time, List.copyOf(threads), recordsState);
    }

    /** JDK 25 writes ids as strings, JDK 27 as numbers. */
    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(value));
    }
}
