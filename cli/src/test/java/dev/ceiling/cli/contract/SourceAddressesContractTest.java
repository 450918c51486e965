package dev.ceiling.cli.contract;

import static dev.ceiling.cli.contract.Cli.assertUsageError;
import static dev.ceiling.cli.contract.Cli.run;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * {@code --source-addresses} on {@code experiment} and {@code sweep} the way a user runs it: every
 * bad value is one usage line naming the option (exit 2) before anything starts.
 */
class SourceAddressesContractTest {
  @Test
  void everyBadValueIsOneLineNamingTheOption() {
    for (String bad :
        new String[] {"10.0.0.1", "localhost", "127.0.0.9-127.0.0.2", "127.0.0.2,127.0.0.2", ""}) {
      assertUsageError(run("experiment", "--source-addresses", bad), "--source-addresses");
      assertUsageError(
          run(
              "sweep",
              "--rig",
              "r.json",
              "--json",
              "h.json",
              "--rates",
              "1",
              "--source-addresses",
              bad),
          "--source-addresses");
    }
    assertUsageError(
        run("experiment", "--source-addresses", "127.0.0.2", "--generators", "2"),
        "--source-addresses");
    // Partner: good addresses pass the option checks; what stops this run is the next problem.
    Cli.Outcome ok =
        run("experiment", "--source-addresses", "127.0.0.2-127.0.0.9", "--repeats", "1");
    assertUsageError(ok, "--repeats");
    assertThat(ok.err()).doesNotContain("--source-addresses");
    assertThat(run("experiment", "--help").out()).contains("--source-addresses=ADDRESSES");
    assertThat(run("sweep", "--help").out()).contains("--source-addresses=ADDRESSES");
  }
}
