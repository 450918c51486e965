package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import org.junit.jupiter.api.Test;

/**
 * The numerator of accepted/offered: answers to warm-up slots are credited only against the
 * window's own slots left unanswered at its end. Worked by hand at 100/s over 4 s (400 offered).
 */
class CreditedInWindowTest {
  /**
   * 400 window slots sent; {@code inWindow} OK-true arrivals, {@code own} of them to window slots.
   */
  static Cell cell(long inWindow, long own, long ownOutstandingAtEnd) {
    return Cell.builder()
        .offeredPerS(100)
        .durationRequestedS(4)
        .attempted(400)
        .warmupSlotsSent(200L)
        .accepted(400)
        .acceptedInWindow(inWindow)
        .windowCounts(inWindow / 2, inWindow - inWindow / 2, own, ownOutstandingAtEnd, 5, 5, 5)
        .build();
  }

  @Test
  void aBurstOfWarmUpAnswersIsCreditedOnlyAgainstTheWindowsOwnDebt() {
    // The relay held the 200 warm-up answers and released them in the window, then answered the
    // window's 400 slots with 3 still in flight at its end: 597 arrivals, 397 + 3 credited.
    Cell c = cell(597, 397, 3);
    assertThat(c.creditedInWindow()).isEqualTo(400);
    assertThat(c.acceptedOverOffered()).isEqualTo(1.0);
    assertThat(c.acceptedPerS()).isEqualTo(100.0);
    // Partner: the plain arrivals would read 1.4925.
    assertThat(c.acceptedInWindow() / c.offeredEvents()).isGreaterThan(1.4);
  }

  @Test
  void underSaturationEveryArrivalIsCreditedBecauseTheWindowHandsOnItsBacklog() {
    // A ceiling of 60/s: 240 arrivals, 140 answering warm-up slots; the window hands on 300 slots.
    Cell c = cell(240, 100, 300);
    assertThat(c.creditedInWindow()).isEqualTo(240);
    assertThat(c.acceptedPerS()).isEqualTo(60.0);
  }

  @Test
  void belowTheCeilingTheInFlightAnswersAtEitherEdgeBalance() {
    // 12 in flight at the start answered in the window, 10 of the window's in flight at its end.
    Cell c = cell(400, 388, 10);
    assertThat(c.creditedInWindow()).isEqualTo(398);
  }

  @Test
  void aCellWithoutTheWindowCountsKeepsThePlainArrivals() {
    Cell c = cell(597, 397, 3).toBuilder().noWindowCounts().build();
    assertThat(c.creditedInWindow()).isEqualTo(597);
    assertThat(c.acceptedOverOffered()).isEqualTo(597 / 400.0);
  }

  @Test
  void aRatioBuiltFromThePlainArrivalsIsRefused() throws Exception {
    // Partner: a cell claiming the old ratio beside window counts that cap it cannot be read.
    Cell c = cell(597, 397, 3);
    String json =
        Json.write(c)
            .replace("\"accepted_over_offered\" : 1.0", "\"accepted_over_offered\" : 1.4925");
    assertThat(json).contains("1.4925");
    assertThatThrownBy(() -> Json.read(json, "cell.json", Cell.class))
        .hasMessageContaining("accepted_over_offered must equal its definition (1.0), got 1.4925");
  }

  @Test
  void partlyRecordedWindowCountsAreRefused() throws Exception {
    String json = Json.write(cell(597, 397, 3)).replace("\"outstanding_at_window_mid\" : 5,", "");
    assertThatThrownBy(() -> Json.read(json, "cell.json", Cell.class))
        .hasMessageContaining("must all be present or all be absent");
  }
}
