package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link ExperimentIdentity#withRates}: only the grid changes, and it is checked like any grid. */
class IdentityWithRatesTest {
  @Test
  void onlyTheGridChanges() {
    ExperimentIdentity id = GoldenFixtures.identity();
    ExperimentIdentity other = id.withRates(List.of(37.0, 55.0));
    assertThat(other.ratesPerS()).containsExactly(37.0, 55.0);
    assertThat(other.withRates(id.ratesPerS())).isEqualTo(id);
    // Partner: the same identity with its own grid is unchanged, and another grid is not it.
    assertThat(other).isNotEqualTo(id);
  }

  @Test
  void aGridNotStrictlyAscendingIsRefusedByName() {
    ExperimentIdentity id = GoldenFixtures.identity();
    assertThatThrownBy(() -> id.withRates(List.of(55.0, 37.0)))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("rates_per_s must be strictly ascending");
  }
}
