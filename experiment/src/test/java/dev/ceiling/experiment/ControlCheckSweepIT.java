package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.prom.MetricsScraper;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import dev.ceiling.verdict.CellProblem;
import dev.ceiling.verdict.CellProblems;
import dev.ceiling.verdict.ProblemKind;
import dev.ceiling.verdict.VerdictConfig;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The profile's control check, run by a real sweep of the real reference relay's control arm: the
 * rig expands it into the descriptor, the sweep runs it before and after each control cell and
 * records both readings in the cell. A check whose output stays put verifies the control; its
 * partner, a check whose output changes across every cell (a counter file the check itself bumps,
 * as a live audit table would grow), fails the run.
 */
class ControlCheckSweepIT {
  @TempDir Path dir;

  private RelayProfile profileWithCheck(List<String> check) throws Exception {
    ObjectNode root;
    try (InputStream in =
        RelayProfile.class.getResourceAsStream("/dev/ceiling/rig/profiles/reference.json")) {
      root = (ObjectNode) Json.mapper().readTree(in);
    }
    root.putPOJO("control_check", check);
    Path f = dir.resolve("reference-with-check.json");
    Files.writeString(f, Json.mapper().writeValueAsString(root), StandardCharsets.UTF_8);
    return RelayProfile.load(f);
  }

  private List<Cell> sweep(RigDescriptor d, RelayProfile p, String journal) throws Exception {
    SweepOptions o = SweepOptions.defaults(dir.resolve(journal)).withWarmup(Duration.ofMillis(200));
    ExperimentIdentity id = Identities.of(p, d, List.of(50.0), 1.0, 2, null, o.measurement());
    SweepRunner.Outcome out =
        new SweepRunner(
                new MetricsScraper(Duration.ofSeconds(2), Duration.ofSeconds(5), 16 * 1024 * 1024),
                new SweepProgress() {})
            .run(d, id, o);
    assertThat(out.failure()).isNull();
    for (Cell c : out.half().cells()) {
      cellProblems.put(c, CellProblems.of(c, id, VerdictConfig.defaults()));
    }
    return out.half().cells();
  }

  private final Map<Cell, List<CellProblem>> cellProblems = new java.util.HashMap<>();

  @Test
  void aFlatCheckVerifiesTheControlAndAChangingOneFailsIt() throws Exception {
    Path counter = dir.resolve("rows");
    // Bumps a counter file on every run: what a live audit table's row count does.
    List<String> growing =
        List.of(
            "sh",
            "-c",
            "n=$(cat \"$0\" 2>/dev/null || echo 0); echo $((n+1)) > \"$0\"; echo rows=$n",
            counter.toString());
    RelayProfile p = profileWithCheck(List.of("echo", "${data_dir}"));
    UpOptions up =
        UpOptions.of(p, "off", dir.resolve("rig"))
            .withReset(true)
            .withOverrides(
                Map.of(
                    "port",
                    Integer.toString(ScaleOutIT.freePort()),
                    "db_port",
                    Integer.toString(ScaleOutIT.freePort()),
                    "calibration_runs",
                    "10"));
    try (RigHandle rig = Rig.up(up)) {
      RigDescriptor d = rig.descriptor();
      String dataDir = dir.resolve("rig").resolve("data").toAbsolutePath().toString();
      assertThat(d.controlCheck()).containsExactly("echo", dataDir);
      List<Cell> flat = sweep(d, p, "flat.jsonl");
      assertThat(flat)
          .hasSize(2)
          .allSatisfy(
              c -> {
                assertThat(c.controlCheck().outputBefore()).isEqualTo(dataDir);
                assertThat(c.controlCheck().unchanged()).isTrue();
                assertThat(cellProblems.get(c))
                    .extracting(CellProblem::kind)
                    .doesNotContain(
                        ProblemKind.CONTROL_CHECK_CHANGED, ProblemKind.CONTROL_NOT_VERIFIED);
              });

      List<Cell> live = sweep(TestDescriptors.withControlCheck(d, growing), p, "live.jsonl");
      assertThat(live)
          .allSatisfy(
              c -> {
                assertThat(c.controlCheck().unchanged()).isFalse();
                assertThat(cellProblems.get(c))
                    .extracting(CellProblem::kind)
                    .contains(ProblemKind.CONTROL_CHECK_CHANGED);
              });
      assertThat(live.get(0).controlCheck().outputBefore()).isEqualTo("rows=0");
      assertThat(live.get(0).controlCheck().outputAfter()).isEqualTo("rows=1");
    }
  }
}
