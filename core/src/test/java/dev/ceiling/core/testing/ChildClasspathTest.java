package dev.ceiling.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.File;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChildClasspathTest {
  @Test
  void underSurefireUsesJavaClassPath() {
    assertThat(ChildClasspath.classpath()).isEqualTo(System.getProperty("java.class.path"));
    assertThat(new File(ChildClasspath.javaExecutable()).canExecute()).isTrue();
  }

  /**
   * Emulates exec:java: java.class.path names only a launcher jar, the project's classes sit in a
   * URLClassLoader set as the context loader. The loader's URLs must come back.
   */
  @Test
  void underExecJavaWalksTheContextLoader() throws Exception {
    String saved = System.getProperty("java.class.path");
    ClassLoader savedLoader = Thread.currentThread().getContextClassLoader();
    List<URL> urls = new ArrayList<>();
    for (String e : saved.split(File.pathSeparator, -1)) {
      urls.add(Path.of(e).toUri().toURL());
    }
    try (URLClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), null)) {
      System.setProperty("java.class.path", "/usr/share/maven/boot/plexus-classworlds.jar");
      Thread.currentThread().setContextClassLoader(loader);
      List<String> cp = List.of(ChildClasspath.classpath().split(File.pathSeparator, -1));
      assertThat(cp)
          .doesNotContain("/usr/share/maven/boot/plexus-classworlds.jar")
          .anyMatch(e -> e.endsWith(Path.of("rig", "target", "classes").toString()))
          .anyMatch(e -> e.contains("jetty-websocket-jetty-server"));

      // Mutant partner: with no URLClassLoader to walk there is nothing to find.
      Thread.currentThread().setContextClassLoader(new ClassLoader(null) {});
      if (!(ChildClasspathTest.class.getClassLoader() instanceof URLClassLoader)) {
        assertThatThrownBy(ChildClasspath::classpath)
            .isInstanceOf(IllegalStateException.class)
            .hasMessageContaining("cannot find a classpath");
      }
    } finally {
      System.setProperty("java.class.path", saved);
      Thread.currentThread().setContextClassLoader(savedLoader);
    }
  }
}
