package io.starvationlab.diagnose;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * A JSON thread dump ({@code jcmd Thread.dump_to_file -format=json}, the one view that lists every
 * virtual thread). JDK 21 writes each thread's id, name and stack; JDK 25 adds whether it is virtual,
 * its state, its carrier, the monitors it owns (with the depth of the frame that owns each) and the time
 * it was dumped. What a dump lacks is read as unknown, never guessed from the JDK's version.
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
     * @param time          when this thread was dumped (JDK 25+), else the dump's time
     */
    record Thread(long id, String name, boolean virtual, String state, Long carrier, List<Frame> stack, List<Integer> monitorDepths,
            Instant time) {

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
            for (Object owned : (List<Object>) t.getOrDefault("monitorsOwned", List.of())) {
                depths.add((int) number(((Map<String, Object>) owned).get("depth")));
            }
            boolean virtual = marksVirtual ? Boolean.TRUE.equals(t.get("virtual")) : !platformThreadIds.contains(id);
            Object carrier = t.get("carrier");
            Object threadTime = t.get("time");
            threads.add(new Thread(id, (String) t.getOrDefault("name", ""), virtual, (String) t.get("state"), carrier == null ? null : number(carrier),
                    stack, List.copyOf(depths), threadTime == null ? time : Instant.parse((String) threadTime)));
        }
        return new ThreadDump(time, List.copyOf(threads), recordsState);
    }

    /** JDK 25 writes ids as strings, JDK 27 as numbers. */
    private static long number(Object value) {
        return value instanceof Number n ? n.longValue() : Long.parseLong(String.valueOf(value));
    }
}
