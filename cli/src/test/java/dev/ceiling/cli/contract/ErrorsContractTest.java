package dev.ceiling.cli.contract;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.cli.CommandLines;
import dev.ceiling.cli.ExitCode;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * An {@link Error} (out of memory, a stack overflow) escapes picocli; at the top it must become one
 * {@code error:} line and exit 3, never a stack trace and the JVM's exit 1, which means "not
 * established". The partner runs the same command through picocli alone and sees the Error escape,
 * so the catch, not picocli, is what turns it into a line.
 */
class ErrorsContractTest {
  @Command(name = "boom")
  static final class Boom implements Callable<Integer> {
    final Error error;

    Boom(Error error) {
      this.error = error;
    }

    @Override
    public Integer call() {
      throw error;
    }
  }

  private static String[] run(Error e) {
    StringWriter err = new StringWriter();
    CommandLine cl = CommandLines.configure(new CommandLine(new Boom(e)));
    cl.setErr(new PrintWriter(err, true));
    int code = CommandLines.executeCatchingErrors(cl);
    return new String[] {Integer.toString(code), err.toString()};
  }

  @Test
  void anOutOfMemoryErrorIsOneLineAndExit3() {
    String[] r = run(new OutOfMemoryError("Java heap space"));
    assertThat(r[0]).isEqualTo(Integer.toString(ExitCode.INFRASTRUCTURE));
    assertThat(r[1].lines().toList())
        .singleElement()
        .satisfies(
            l ->
                assertThat(l)
                    .startsWith("error: out of memory (")
                    .contains("MiB heap): Java heap space; lower the load or raise -Xmx"));
    String[] so = run(new StackOverflowError());
    assertThat(so[0]).isEqualTo("3");
    assertThat(so[1]).isEqualTo("error: StackOverflowError" + System.lineSeparator());
  }

  @Test
  void withoutTheTopLevelCatchTheErrorEscapes() {
    CommandLine cl = CommandLines.configure(new CommandLine(new Boom(new OutOfMemoryError("x"))));
    cl.setErr(new PrintWriter(new StringWriter(), true));
    assertThatThrownBy(cl::execute).isInstanceOf(OutOfMemoryError.class);
  }
}
