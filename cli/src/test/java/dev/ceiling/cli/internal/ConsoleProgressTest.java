package dev.ceiling.cli.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.testing.HalfRuns;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/** Progress lines with the time left, on a clock the test sets: never a timed test. */
class ConsoleProgressTest {
  static final long S = 1_000_000_000L;

  static Cell cell() {
    return HalfRuns.cell(HalfRuns.ON, 100, 0, 0, 10, 1.0).build();
  }

  @Test
  void eachCellLineSaysHowLongIsLeftFromTheMeanTimePerCell() {
    StringWriter text = new StringWriter();
    AtomicLong now = new AtomicLong(1000 * S);
    ConsoleProgress p =
        new ConsoleProgress(new PrintWriter(text, true), false, false, false, now::get);
    p.sweepStarted("on", 24, 0);
    now.addAndGet(70 * S);
    p.cellFinished(cell(), 7, 24);
    // 7 cells in 70 s: 10 s each, 17 left.
    assertThat(text.toString()).contains("[on cell 7/24, about 2 min 50 s left] 100/s r0");
  }

  @Test
  void cellsFoundInTheJournalDoNotCountAsFast() {
    StringWriter text = new StringWriter();
    AtomicLong now = new AtomicLong(0);
    ConsoleProgress p =
        new ConsoleProgress(new PrintWriter(text, true), false, false, false, now::get);
    // Resumed with 20 of 24 done: 2 measured in 20 s, 2 left: 20 s, not 2 s.
    p.sweepStarted("on", 24, 20);
    now.addAndGet(20 * S);
    p.cellFinished(cell(), 22, 24);
    assertThat(text.toString()).contains("[on cell 22/24, about 20 s left]");
  }

  @Test
  void timeLeftIsWordedForSecondsMinutesAndHours() {
    assertThat(ConsoleProgress.timeLeft(70, 7, 17)).isEqualTo("about 2 min 50 s left");
    assertThat(ConsoleProgress.timeLeft(10, 1, 3)).isEqualTo("about 30 s left");
    assertThat(ConsoleProgress.timeLeft(60, 1, 2)).isEqualTo("about 2 min left");
    assertThat(ConsoleProgress.timeLeft(3000, 1, 2)).isEqualTo("about 1 h 40 min left");
    assertThat(ConsoleProgress.timeLeft(0.1, 1, 1)).isEqualTo("about 5 s left");
    assertThat(ConsoleProgress.timeLeft(10, 0, 3)).isEqualTo("time left not yet known");
    assertThat(ConsoleProgress.timeLeft(10, 3, 0)).isEqualTo("done");
  }

  @Test
  void quietPrintsWarningsOnly() {
    StringWriter text = new StringWriter();
    AtomicLong now = new AtomicLong(0);
    ConsoleProgress quiet =
        new ConsoleProgress(new PrintWriter(text, true), false, true, true, now::get);
    quiet.sweepStarted("on", 2, 0);
    quiet.cellFinished(cell(), 1, 2);
    quiet.generatorLine("clock starts");
    quiet.warning("relay restarted");
    assertThat(text.toString()).isEqualTo("warning: relay restarted\n");
    // Partner: the same calls without quiet print the progress too.
    StringWriter loud = new StringWriter();
    ConsoleProgress normal =
        new ConsoleProgress(new PrintWriter(loud, true), false, true, false, now::get);
    normal.sweepStarted("on", 2, 0);
    normal.cellFinished(cell(), 1, 2);
    normal.generatorLine("clock starts");
    assertThat(loud.toString())
        .contains("sweep 'on': 2 cells planned")
        .contains("[on cell 1/2, ")
        .contains("  generator: clock starts");
  }
}
