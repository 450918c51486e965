package dev.ceiling.core.testing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class PropertyTest {
  @Test
  void runsEveryTry() {
    AtomicInteger n = new AtomicInteger();
    Property.forAll("count", 50, r -> n.incrementAndGet());
    assertThat(n).hasValue(50);
  }

  @Test
  void failureNamesTheSeedForReplay() {
    assertThatThrownBy(
            () ->
                Property.forAll(
                    "always fails",
                    3,
                    r -> {
                      throw new AssertionError("boom");
                    }))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("property 'always fails' failed on try 0")
        .hasMessageContaining("-Dceiling.seed=")
        .hasMessageContaining("boom");
  }
}
