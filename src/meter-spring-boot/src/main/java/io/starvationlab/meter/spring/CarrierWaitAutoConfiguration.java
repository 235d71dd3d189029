package io.starvationlab.meter.spring;

import java.util.concurrent.ExecutorService;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.actuate.autoconfigure.web.server.ConditionalOnManagementPort;
import org.springframework.boot.actuate.autoconfigure.web.server.ManagementPortType;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.autoconfigure.condition.ConditionalOnWebApplication;
import org.springframework.boot.autoconfigure.thread.Threading;
import org.springframework.boot.web.embedded.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

import io.starvationlab.meter.CarrierWaitMeter;

/**
 * The starvation meter in a Spring Boot application that only adds this jar: the meter as a bean, which the
 * actuator binds to every registry as it binds every {@code MeterBinder}
 * ({@code MeterRegistryPostProcessor}) and closes with the context; and, where Tomcat serves requests on
 * virtual threads ({@code spring.threads.virtual.enabled=true}), each request's wait for a carrier, from
 * Tomcat's hand-off until its virtual thread runs ({@code source="task"}). A management port of its own keeps
 * the scrape off the carriers ({@link ManagementServerOnPlatformThreads}); without one this says so at start-up.
 */
@AutoConfiguration
public class CarrierWaitAutoConfiguration {

    private static final Log LOG = LogFactory.getLog(CarrierWaitAutoConfiguration.class);

    @Bean
    @ConditionalOnMissingBean
    CarrierWaitMeter carrierWaitMeter() {
        return new CarrierWaitMeter();
    }

    @Configuration(proxyBeanMethods = false)
    @ConditionalOnClass(name = "org.apache.catalina.startup.Tomcat")
    @ConditionalOnWebApplication(type = ConditionalOnWebApplication.Type.SERVLET)
    @ConditionalOnThreading(Threading.VIRTUAL)
    static class TomcatOnVirtualThreads {

        @Bean
        TomcatRequestHandOff tomcatRequestHandOff(CarrierWaitMeter carrierWaitMeter) {
            return new TomcatRequestHandOff(carrierWaitMeter);
        }

        @Bean
        @ConditionalOnManagementPort(ManagementPortType.SAME)
        SmartInitializingSingleton warnOfMetricsOnTheCarriers() {
            return () -> LOG.warn("The actuator shares the port whose requests run on virtual threads: while every carrier is held "
                    + "its Prometheus endpoint waits too and the scrape fails. Set management.server.port to serve it from "
                    + "platform threads of its own.");
        }
    }

    /** Wraps the executor Spring Boot gives Tomcat's protocol handler; ordered last, so after the one that sets it. */
    static final class TomcatRequestHandOff implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

        private final CarrierWaitMeter meter;

        TomcatRequestHandOff(CarrierWaitMeter meter) {
            this.meter = meter;
        }

        @Override
        public void customize(ConfigurableTomcatWebServerFactory factory) {
            factory.addProtocolHandlerCustomizers(handler -> {
                if (handler.getExecutor() instanceof ExecutorService virtualThreads) {
                    handler.setExecutor(meter.wrap(virtualThreads));
                }
            });
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
