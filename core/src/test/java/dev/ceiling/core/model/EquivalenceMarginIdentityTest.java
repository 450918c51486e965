package dev.ceiling.core.model;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import org.junit.jupiter.api.Test;

/**
 * The equivalence margin is part of the identity: an identity written before it existed reads as
 * "no equivalence question", a stored margin reads back exactly, and a margin outside (0, 1) is
 * refused with its name.
 */
class EquivalenceMarginIdentityTest {
  @Test
  void anIdentityWrittenBeforeTheMarginReadsAsNone() throws Exception {
    String now = GoldenFilesTest.golden("experiment-identity.json");
    assertThat(Json.read(now, "now", ExperimentIdentity.class).equivalenceMargin()).isEqualTo(0.05);
    String before = now.replaceAll(",\\n\\s*\"equivalence_margin\" : 0\\.05", "");
    assertThat(before).doesNotContain("equivalence_margin");
    ExperimentIdentity old = Json.read(before, "before", ExperimentIdentity.class);
    assertThat(old.equivalenceMargin()).isNull();
    assertThat(old.withEquivalenceMargin(0.05)).isEqualTo(GoldenFixtures.identity());
    // A half-run written before the margin reads too: the identity inside it is filled.
    String half = GoldenFilesTest.golden("half-run.json");
    String oldHalf = half.replaceAll(",\\n\\s*\"equivalence_margin\" : 0\\.05", "");
    assertThat(oldHalf).isNotEqualTo(half);
    assertThat(Json.read(oldHalf, "old-half", HalfRun.class).identity().equivalenceMargin())
        .isNull();
    // Partner: a misspelt margin is not mistaken for the missing one.
    String misspelt = now.replace("\"equivalence_margin\"", "\"equivalence_margins\"");
    assertThatThrownBy(() -> Json.read(misspelt, "misspelt", ExperimentIdentity.class))
        .isInstanceOf(ReportFormatException.class)
        .hasMessageContaining("equivalence_margins");
  }

  @Test
  void aMarginOutsideZeroToOneIsRefusedByName() {
    ExperimentIdentity id = GoldenFixtures.identity();
    for (double bad : new double[] {0, 1, -0.05, 1.5, Double.NaN}) {
      assertThatThrownBy(() -> id.withEquivalenceMargin(bad))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessage(
              "equivalence_margin must be in (0, 1) (a fraction of accepted/offered) or null, got "
                  + bad);
    }
    assertThat(id.withEquivalenceMargin(null).equivalenceMargin()).isNull();
    assertThat(id.withEquivalenceMargin(0.999).equivalenceMargin()).isEqualTo(0.999);
    assertThat(id.withMeasurement(null).equivalenceMargin()).isEqualTo(0.05);
  }
}
