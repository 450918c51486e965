package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReadyLineTest {
  private static ReadyLine reference() {
    Map<String, String> f = new LinkedHashMap<>();
    f.put("port", "47100");
    f.put("db_port", "NA");
    f.put("audit", "on");
    f.put("exchange_cost_ms", "0.412");
    f.put("predicted_worker_ceiling_per_s", "217.9");
    return new ReadyLine(f);
  }

  @Test
  void formatThenParseGivesTheSameLine() {
    String line = reference().format(ReadyLine.PREFIX);
    assertThat(line)
        .isEqualTo(
            "READY port=47100 db_port=NA audit=on exchange_cost_ms=0.412"
                + " predicted_worker_ceiling_per_s=217.9");
    assertThat(ReadyLine.parse(ReadyLine.PREFIX, line)).hasValue(reference());
  }

  /** A third-party relay's own line, as docs/RIG.md allows: other prefix, stray tokens. */
  @Test
  void aCustomLineIsReadAsBeforeStrayTokensSkipped() {
    ReadyLine r = ReadyLine.parse("relay ready:", "relay ready:  port=7 listening x=1=2").get();
    assertThat(r.fields()).containsExactly(Map.entry("port", "7"), Map.entry("x", "1=2"));
  }

  /** Partner: a line without the prefix is no READY line, even if it holds pairs. */
  @Test
  void aLineWithoutThePrefixIsNone() {
    assertThat(ReadyLine.parse(ReadyLine.PREFIX, "NOTREADY port=1")).isEmpty();
    assertThat(ReadyLine.parse(ReadyLine.PREFIX, null)).isEmpty();
  }

  @Test
  void numbersAndNotApplicableAreTyped() {
    ReadyLine r = reference();
    assertThat(r.number("exchange_cost_ms")).hasValue(0.412);
    assertThat(r.number("db_port")).isEmpty();
    assertThat(r.value("db_port")).isEmpty();
    assertThat(r.number("audit")).isEmpty();
    assertThat(r.number("missing")).isEmpty();
  }

  /** A value with a space would read back as two tokens, so it is refused when made. */
  @Test
  void aValueWithWhitespaceIsRefused() {
    assertThatThrownBy(() -> new ReadyLine(Map.of("port", "1 2", "a b", "x")))
        .hasMessageContaining("value of port must be non-null without whitespace, got '1 2'")
        .hasMessageContaining("key must be non-empty without '=' or whitespace, got 'a b'");
  }
}
