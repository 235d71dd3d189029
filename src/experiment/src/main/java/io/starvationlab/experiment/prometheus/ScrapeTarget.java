package io.starvationlab.experiment.prometheus;

import java.net.URI;
import java.util.Map;

/**
 * One server JVM of the run as Prometheus sees it, labelled the way the prometheus-operator labels a
 * target of the project's ServiceMonitor ({@code kubernetes/base/monitoring/servicemonitor.yaml}: no
 * relabelling, no honor_labels): {@code job} and {@code service} the Service's name, {@code namespace},
 * {@code pod}, {@code container}, {@code endpoint} the port's name. The rules group by
 * namespace/service/pod and the dashboard selects on its namespace variable's default.
 */
public record ScrapeTarget(String address, Map<String, String> labels) {

    /** The kustomize base's namespace, and the dashboard's default for its namespace variable. */
    public static final String NAMESPACE = "starvation-lab";
    public static final String METRICS_PATH = "/q/metrics";

    /** The run's server JVM {@code jvm}, process {@code pid}, serving at {@code base}. */
    public static ScrapeTarget of(String jvm, long pid, URI base) {
        String service = "lab-" + jvm;
        return new ScrapeTarget("127.0.0.1:" + base.getPort(), Map.of("job", service, "namespace", NAMESPACE, "service", service, "pod",
                service + "-" + pid, "container", "lab", "endpoint", "http"));
    }

    public String pod() {
        return labels.get("pod");
    }
}
