package dev.ceiling.core.testing;

import dev.ceiling.core.os.JavaExecutable;
import java.io.File;
import java.net.URISyntaxException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The classpath and java executable with which to launch a child JVM that runs this project's
 * classes (e.g. {@link ReferenceRelayMain}).
 *
 * <p>Under surefire and from a packaged build, {@code java.class.path} holds the application
 * classpath. Under {@code mvn exec:java} it holds only Maven's launcher: the project's classes live
 * in a URLClassLoader that exec:java sets as the thread's context class loader, so this walks that
 * loader chain and collects its URLs.
 */
public final class ChildClasspath {
  private ChildClasspath() {}

  /**
   * The classpath for a child JVM, in {@link File#pathSeparator}-joined form.
   *
   * @throws IllegalStateException when neither source yields a classpath that contains this class
   */
  public static String classpath() {
    String self = ChildClasspath.class.getName().replace('.', '/') + ".class";
    List<String> fromLoaders = fromLoaders(Thread.currentThread().getContextClassLoader());
    fromLoaders.addAll(fromLoaders(ChildClasspath.class.getClassLoader()));
    Set<String> loaderEntries = new LinkedHashSet<>(fromLoaders);
    String javaClassPath = System.getProperty("java.class.path", "");
    if (containsSelf(javaClassPath, self)) {
      return javaClassPath;
    }
    if (!loaderEntries.isEmpty()) {
      return String.join(File.pathSeparator, loaderEntries);
    }
    throw new IllegalStateException(
        "cannot find a classpath for a child JVM: java.class.path does not contain "
            + self
            + " and no URLClassLoader is in the context loader chain; java.class.path="
            + javaClassPath);
  }

  /** The java executable of this JVM: {@link JavaExecutable#path}. */
  public static String javaExecutable() {
    return JavaExecutable.path();
  }

  /** A command line {@code java -cp <classpath> <mainClass> args...}. */
  public static List<String> command(String mainClass, List<String> jvmArgs, List<String> args) {
    List<String> cmd = new ArrayList<>();
    cmd.add(javaExecutable());
    cmd.addAll(jvmArgs);
    cmd.add("-cp");
    cmd.add(classpath());
    cmd.add(mainClass);
    cmd.addAll(args);
    return cmd;
  }

  private static boolean containsSelf(String cp, String selfResource) {
    if (cp.isEmpty()) {
      return false;
    }
    for (String entry : cp.split(File.pathSeparator, -1)) {
      File f = new File(entry);
      if (f.isDirectory() && new File(f, selfResource).isFile()) {
        return true;
      }
      if (f.isFile() && entry.endsWith(".jar") && jarContains(f, selfResource)) {
        return true;
      }
    }
    return false;
  }

  private static boolean jarContains(File jar, String resource) {
    try (java.util.jar.JarFile j = new java.util.jar.JarFile(jar)) {
      return j.getEntry(resource) != null;
    } catch (java.io.IOException e) {
      return false;
    }
  }

  private static List<String> fromLoaders(ClassLoader loader) {
    List<String> out = new ArrayList<>();
    for (ClassLoader l = loader; l != null; l = l.getParent()) {
      if (l instanceof URLClassLoader u) {
        for (URL url : u.getURLs()) {
          if ("file".equals(url.getProtocol())) {
            try {
              out.add(Path.of(url.toURI()).toString());
            } catch (URISyntaxException | IllegalArgumentException e) {
              // A URL that is not a plain file path cannot go on a java -cp line; skip it.
            }
          }
        }
      }
    }
    return out;
  }
}
