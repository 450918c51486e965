package dev.ceiling.prom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.prom.CounterDelta.Kind;
import java.net.URI;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CounterDeltaTest {
  private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

  private static Snapshot at(int seconds, String body) throws MetricsException {
    return Snapshot.parse(
        URI.create("test:delta"), T0.plusSeconds(seconds), body.replace('|', '\n'));
  }

  private static CounterDelta delta(String before, String after, String selector, boolean pc)
      throws MetricsException {
    return CounterDelta.between(at(0, before), at(10, after), Selector.parse(selector), pc);
  }

  /** before | after bodies use '|' for line feeds. */
  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = ';',
      quoteCharacter = '`',
      textBlock =
          """
          increase             ; c{k="a"} 5|           ; c{k="a"} 12|          ; c           ; false ; INCREASE    ; c: INCREASE +7.0 (1 series)
          sum across series    ; c{k="a"} 5|c{k="b"} 1| ; c{k="a"} 6|c{k="b"} 4| ; c         ; false ; INCREASE    ; c: INCREASE +4.0 (2 series)
          unchanged            ; c 5|                   ; c 5|                  ; c           ; false ; INCREASE    ; c: INCREASE +0.0 (1 series)
          reset                ; c 12|                  ; c 3|                  ; c           ; false ; RESET       ; c: RESET (c went down from 12.0 to 3.0)
          reset hidden by sum  ; c{k="a"} 10|c{k="b"} 0| ; c{k="a"} 2|c{k="b"} 50| ; c        ; false ; RESET       ; c: RESET (c{k="a"} went down from 10.0 to 2.0)
          absent both          ; x 1|                   ; x 1|                  ; c           ; false ; NOT_EXPOSED ; c: NOT_EXPOSED (absent before and after)
          absent both, pc      ; x 1|                   ; x 1|                  ; c           ; true  ; INCREASE    ; c: INCREASE +0.0 (absent before and after, read as 0 (positive-controlled))
          appears              ; x 1|                   ; c 4|                  ; c           ; false ; NOT_EXPOSED ; c: NOT_EXPOSED (c absent before (not declared positive-controlled, so absence is not 0))
          appears, pc          ; x 1|                   ; c 4|                  ; c           ; true  ; INCREASE    ; c: INCREASE +4.0 (1 series)
          vanishes             ; c 4|                   ; x 1|                  ; c           ; false ; NOT_EXPOSED ; c: NOT_EXPOSED (c absent after (not declared positive-controlled, so absence is not 0))
          vanishes, pc         ; c 4|                   ; x 1|                  ; c           ; true  ; RESET       ; c: RESET (c went down from 4.0 to 0.0 (absent after, read as 0))
          new series appears   ; c{k="a"} 1|            ; c{k="a"} 1|c{k="b"} 2| ; c          ; false ; NOT_EXPOSED ; c: NOT_EXPOSED (c{k="b"} absent before (not declared positive-controlled, so absence is not 0))
          new series, pc       ; c{k="a"} 1|            ; c{k="a"} 1|c{k="b"} 2| ; c          ; true  ; INCREASE    ; c: INCREASE +2.0 (2 series)
          NaN                  ; c NaN|                 ; c 1|                  ; c           ; false ; NOT_FINITE  ; c: NOT_FINITE (c is NaN before)
          selector subset      ; c{r="q",k="a"} 1|c{r="u"} 9| ; c{r="q",k="a"} 3|c{r="u"} 1| ; c{r="q"} ; false ; INCREASE ; c{r="q"}: INCREASE +2.0 (1 series)
          """)
  void deltas(
      String what, String before, String after, String selector, boolean pc, Kind kind, String line)
      throws MetricsException {
    CounterDelta d = delta(before.strip(), after.strip(), selector.strip(), pc);
    assertThat(d.kind()).as(what).isEqualTo(kind);
    assertThat(d.toString()).as(what).isEqualTo(line.strip());
    assertThat(d.positiveControlled()).isEqualTo(pc);
    if (kind == Kind.INCREASE) {
      assertThat(d.delta())
          .isGreaterThanOrEqualTo(0.0)
          .isEqualTo(d.deltaIfIncrease().getAsDouble());
    } else {
      assertThat(d.deltaIfIncrease()).isEmpty();
      assertThatThrownBy(d::delta).isInstanceOf(IllegalStateException.class);
    }
  }

  /**
   * Mutant partner: a naive "sum after minus sum before" would report the hidden reset as +42 and a
   * plain reset as -9; the real comparison reports both as RESET.
   */
  @Test
  void naiveSumDifferenceIsCaught() throws MetricsException {
    Snapshot before = at(0, "c{k=\"a\"} 10\nc{k=\"b\"} 0\n");
    Snapshot after = at(10, "c{k=\"a\"} 2\nc{k=\"b\"} 50\n");
    Selector c = Selector.of("c");
    double naive = after.read(c).value() - before.read(c).value();
    assertThat(naive).isEqualTo(42.0);
    assertThat(CounterDelta.between(before, after, c, false).kind()).isEqualTo(Kind.RESET);
    Snapshot down = at(20, "c{k=\"a\"} 1\nc{k=\"b\"} 0\n");
    assertThat(down.read(c).value() - before.read(c).value()).isNegative();
    assertThat(CounterDelta.between(before, down, c, false).kind()).isEqualTo(Kind.RESET);
  }

  @Test
  void snapshotsOutOfOrderAreAnError() throws MetricsException {
    Snapshot early = at(0, "c 1\n");
    Snapshot late = at(5, "c 2\n");
    assertThatThrownBy(() -> CounterDelta.between(late, early, Selector.of("c"), false))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "after must not be taken before before, got before=2026-01-01T00:00:05Z"
                + " after=2026-01-01T00:00:00Z");
  }
}
