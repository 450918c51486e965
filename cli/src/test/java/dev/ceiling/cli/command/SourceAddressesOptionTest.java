package dev.ceiling.cli.command;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.experiment.SweepOptions;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

/** The option's effect on a sweep: the addresses, a connection each, and M in the identity. */
class SourceAddressesOptionTest {
  @Test
  void eachAddressGetsAConnectionAndItsCountEntersTheIdentity() {
    MeasuringOptions.Sources o = new MeasuringOptions.Sources();
    o.spec = "127.0.0.2-127.0.0.17";
    // No problem: orFail returns instead of throwing a usage error.
    o.check(new OptionChecks(), new MeasuringOptions.Generators()).orFail(null);

    SweepOptions s = o.apply(SweepOptions.defaults(Path.of("j.jsonl")));

    assertThat(s.sourceAddresses()).hasSize(16);
    assertThat(s.connectionsPerTarget()).isEqualTo(16);
    assertThat(s.measurement().sourceAddresses()).isEqualTo(16);
    // Partner: without the option nothing changes, and the identity says the OS chose.
    SweepOptions plain = new MeasuringOptions.Sources().apply(SweepOptions.defaults(Path.of("j")));
    assertThat(plain.connectionsPerTarget()).isEqualTo(8);
    assertThat(plain.measurement().sourceAddresses()).isNull();
  }
}
