package dev.ceiling.cli.internal;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Consumer;

/**
 * Handlers for named POSIX signals (SIGINT, SIGTERM) that know which signal came, which a JVM
 * shutdown hook cannot tell. While installed, the signals no longer start the JVM's shutdown: the
 * handler decides what happens, and {@link #close()} puts the previous handlers back.
 *
 * <p>Through {@code sun.misc.Signal} (module {@code jdk.unsupported}), reached by reflection
 * because the build compiles with {@code -Werror}, and javac's warning for that package cannot be
 * suppressed. A JVM without it installs nothing ({@link #installed()} false), and the caller's
 * shutdown hook is then what catches the signal, without its name.
 *
 * <p>The handler runs on a thread the JVM starts for the signal; it must not block for long.
 */
public final class SignalHandlers implements AutoCloseable {
  private final List<Object[]> previous;

  private SignalHandlers(List<Object[]> previous) {
    this.previous = previous;
  }

  /**
   * Installs {@code onSignal} for each of {@code names} ("INT", "TERM").
   *
   * @param onSignal receives the signal's name as the shell spells it: "SIGINT", "SIGTERM"
   */
  public static SignalHandlers install(List<String> names, Consumer<String> onSignal) {
    Objects.requireNonNull(onSignal, "onSignal");
    List<Object[]> previous = new ArrayList<>();
    try {
      Class<?> signal = Class.forName("sun.misc.Signal");
      Class<?> handler = Class.forName("sun.misc.SignalHandler");
      Method handle = signal.getMethod("handle", signal, handler);
      Method getName = signal.getMethod("getName");
      Object proxy =
          Proxy.newProxyInstance(
              SignalHandlers.class.getClassLoader(),
              new Class<?>[] {handler},
              (p, m, args) -> {
                if (m.getName().equals("handle") && args != null && args.length == 1) {
                  onSignal.accept("SIG" + getName.invoke(args[0]));
                  return null;
                }
                return switch (m.getName()) {
                  case "equals" -> args != null && args.length == 1 && p == args[0];
                  case "hashCode" -> System.identityHashCode(p);
                  case "toString" -> "ceiling signal handler";
                  default -> null;
                };
              });
      for (String name : names) {
        Object s = signal.getConstructor(String.class).newInstance(name);
        previous.add(new Object[] {s, handle.invoke(null, s, proxy), handle});
      }
    } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
      // No sun.misc.Signal here, or the signal is reserved: put back what was installed, and let
      // the caller's shutdown hook catch the signal instead.
      new SignalHandlers(previous).close();
      return new SignalHandlers(new ArrayList<>());
    }
    return new SignalHandlers(previous);
  }

  /** True when every signal asked for has this handler. */
  public boolean installed() {
    return !previous.isEmpty();
  }

  /** Puts the previous handlers back; idempotent. */
  @Override
  public void close() {
    for (Object[] p : previous) {
      try {
        ((Method) p[2]).invoke(null, p[0], p[1]);
      } catch (IllegalAccessException | InvocationTargetException | RuntimeException e) {
        // The JVM is past caring (shutting down); the previous handler mattered only before.
      }
    }
    previous.clear();
  }
}
