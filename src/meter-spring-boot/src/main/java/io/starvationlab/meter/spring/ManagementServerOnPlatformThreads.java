package io.starvationlab.meter.spring;

import org.springframework.boot.actuate.autoconfigure.web.ManagementContextConfiguration;
import org.springframework.boot.actuate.autoconfigure.web.ManagementContextType;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnThreading;
import org.springframework.boot.autoconfigure.thread.Threading;
import org.springframework.boot.web.embedded.tomcat.ConfigurableTomcatWebServerFactory;
import org.springframework.boot.web.server.WebServerFactoryCustomizer;
import org.springframework.context.annotation.Bean;
import org.springframework.core.Ordered;

/**
 * The management server ({@code management.server.port}) back on Tomcat's own pool of platform threads. Spring Boot
 * builds it in a child context with the application's server customizers, {@code spring.threads.virtual.enabled}'s
 * among them ({@code ManagementContextFactory}: {@code EmbeddedWebServerFactoryCustomizerAutoConfiguration}), so
 * its health and Prometheus endpoints would wait for a carrier with every request; Tomcat creates its own pool
 * when the protocol handler is given no executor.
 */
@ManagementContextConfiguration(value = ManagementContextType.CHILD, proxyBeanMethods = false)
@ConditionalOnClass(name = "org.apache.catalina.startup.Tomcat")
@ConditionalOnThreading(Threading.VIRTUAL)
class ManagementServerOnPlatformThreads {

    @Bean
    PlatformThreads managementServerOnPlatformThreads() {
        return new PlatformThreads();
    }

    /** Ordered last, so after Spring Boot's {@code TomcatVirtualThreadsWebServerFactoryCustomizer}, whose executor it takes away. */
    static final class PlatformThreads implements WebServerFactoryCustomizer<ConfigurableTomcatWebServerFactory>, Ordered {

        @Override
        public void customize(ConfigurableTomcatWebServerFactory factory) {
            factory.addProtocolHandlerCustomizers(handler -> handler.setExecutor(null));
        }

        @Override
        public int getOrder() {
            return Ordered.LOWEST_PRECEDENCE;
        }
    }
}
