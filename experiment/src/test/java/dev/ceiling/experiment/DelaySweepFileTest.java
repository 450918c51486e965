package dev.ceiling.experiment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.ceiling.core.json.Json;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A grid chosen after the first points is refused: {@link DelaySweepFile} on a recorded real sweep
 * (the reference relay through the proxy on its H2 link, delays 2, 3 and 4 ms x 2 repeats, seed 3,
 * 80/s, written by {@code ceiling sensitivity} on 2026-12-02) reads it as measured, and refuses the
 * same file with its plan edited after its cells ran, naming what differs.
 */
class DelaySweepFileTest {
  @TempDir Path dir;

  @Test
  void theRecordedSweepIsReadAsMeasured() throws Exception {
    Path file = write("as-measured.json", root -> {});
    DelaySweepReport r = DelaySweepFile.read(file);
    assertThat(r.cells()).hasSize(6);
    assertThat(DelaySweepFile.problems(r)).isEmpty();
    // And against the plan it was run with, given again (what anything continuing it would do).
    assertThat(DelaySweepFile.read(file, r.plan()).plan()).isEqualTo(r.plan());
  }

  /** Mutant: the grid edited after the cells, the stored order left as it ran. */
  @Test
  void aGridEditedAfterTheCellsIsRefusedNamingTheCellsOffIt() throws Exception {
    Path file = write("grid-edited.json", root -> grid(root, 2, 3, 5));
    assertThatThrownBy(() -> DelaySweepFile.read(file))
        .isInstanceOf(ExperimentException.class)
        .hasMessageStartingWith(
            file + ": the cells were not measured under the stored plan (edited after the first")
        .hasMessageContaining(
            "$.plan.cells: not the order that delays_ms [2.0, 3.0, 5.0], repeats 2 and seed 3"
                + " give")
        .hasMessageContaining(
            "$.cells[0] was measured at 4.0 ms, which is not on the grid [2.0, 3.0, 5.0]");
  }

  /**
   * Mutant: a sweep that re-planned after its first points, writing a grid extended by a delay and
   * the order that grid gives: the cells it had measured are not that plan's cells.
   */
  @Test
  void aPlanReplannedWithAnExtendedGridIsRefusedNamingTheCellsThatRanOtherwise() throws Exception {
    List<DelaySweepPlan.Cell> replanned =
        DelaySweepPlan.shuffledCells(List.of(2.0, 3.0, 4.0, 5.0), 2, 3);
    Path file =
        write(
            "replanned.json",
            root -> {
              grid(root, 2, 3, 4, 5);
              ((ObjectNode) root.get("plan")).set("cells", Json.mapper().valueToTree(replanned));
              // 6 of 8 cells: incomplete, so not established either.
              root.put("complete", false).put("established", false);
            });
    assertThatThrownBy(() -> DelaySweepFile.read(file))
        .isInstanceOf(ExperimentException.class)
        .hasMessageNotContaining("$.plan.cells: not the order")
        .hasMessageContaining("$.cells[0] ran as cell 0 at 4.0 ms, repeat 1, the plan's is cell 0");
  }

  /** Mutant: the offer raised after the cells (the rate chosen after the first points). */
  @Test
  void anOfferEditedAfterTheCellsIsRefused() throws Exception {
    Path file =
        write(
            "offer-edited.json", root -> ((ObjectNode) root.get("plan")).put("offered_per_s", 60));
    assertThatThrownBy(() -> DelaySweepFile.read(file))
        .hasMessageContaining("$.cells[0] was offered 80.0 events/s, the plan's rule gives 60.0");
  }

  /**
   * Mutant: a per-point rule declared, and the cells offered otherwise (here all at the first
   * offer). The rule gives the first offer until the cells before span two delays and while the
   * line asks for more, so cells 0 to 2 pass, and the three after them are named with the offer the
   * rule gives from the cells before each.
   */
  @Test
  void cellsOfferedOtherwiseThanThePerPointRuleAreNamed() throws Exception {
    Path file =
        write(
            "per-point.json",
            root ->
                ((ObjectNode) root.get("plan"))
                    .putObject("per_point_offer")
                    .put("multiple", 1.5)
                    .put("fill_per_s", 0.0));
    assertThatThrownBy(() -> DelaySweepFile.read(file))
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining(
            "$.cells[3] was offered 80.0 events/s, the plan's rule gives 33.0 from the 3 cell(s)"
                + " before it")
        .hasMessageContaining("$.cells[4] was offered 80.0 events/s, the plan's rule gives 68.0")
        .hasMessageContaining("$.cells[5] was offered 80.0 events/s, the plan's rule gives 47.0")
        .hasMessageNotContaining("$.cells[2] was offered");
  }

  /**
   * Mutant: a count declared after the run. The file alone cannot show it (the count decides no
   * cell), so the plan given to the reader is what refuses it, naming the field.
   */
  @Test
  void aCountDeclaredAfterTheRunIsRefusedAgainstThePlanGiven() throws Exception {
    DelaySweepPlan given = DelaySweepFile.read(write("given.json", root -> {})).plan();
    Path file =
        write(
            "count-edited.json",
            root -> ((ObjectNode) root.get("plan")).put("expected_round_trips", 8.0));
    assertThat(DelaySweepFile.read(file).plan().expectedRoundTrips()).isEqualTo(8.0);
    assertThatThrownBy(() -> DelaySweepFile.read(file, given))
        .isInstanceOf(ExperimentException.class)
        .hasMessage(
            file
                + ": the stored plan differs from the one given: expected_round_trips stored"
                + " 8.0, given null");
  }

  /**
   * Every field of the plan is compared, not a list of them: the offer's rule (where the rate came
   * from) was once left out of such a list, so a file whose rate was said to come from elsewhere
   * passed. The same file against itself is the partner.
   */
  @Test
  void anOfferRuleEditedAfterTheRunIsRefusedAgainstThePlanGiven() throws Exception {
    DelaySweepPlan given = DelaySweepFile.read(write("given.json", root -> {})).plan();
    Path file =
        write(
            "rule-edited.json",
            root -> ((ObjectNode) root.get("plan")).put("offer_rule", "chosen after the cells"));
    assertThatThrownBy(() -> DelaySweepFile.read(file, given))
        .isInstanceOf(ExperimentException.class)
        .hasMessageContaining(
            "offer_rule stored chosen after the cells, given " + given.offerRule());
    assertThat(DelaySweepFile.read(write("same.json", root -> {}), given).plan()).isEqualTo(given);
  }

  @Test
  void aFileOfAnotherSchemaIsRefused() throws Exception {
    Path file = write("schema.json", root -> root.put("schema", "ceiling-sensitivity/0"));
    assertThatThrownBy(() -> DelaySweepFile.read(file))
        .hasMessage(file + ": $.schema must be ceiling-sensitivity/1, got ceiling-sensitivity/0");
  }

  private static void grid(ObjectNode root, double... delaysMs) {
    ArrayNode grid = ((ObjectNode) root.get("plan")).putArray("delays_ms");
    for (double d : delaysMs) {
      grid.add(d);
    }
  }

  /** The recorded sweep, edited by {@code edit}, in a file of its own. */
  private Path write(String name, Consumer<ObjectNode> edit) throws Exception {
    ObjectNode root;
    try (InputStream in =
        DelaySweepFileTest.class.getResourceAsStream("sensitivity/three-delays.json")) {
      root = (ObjectNode) Json.mapper().readTree(in);
    }
    edit.accept(root);
    Path f = dir.resolve(name);
    Files.writeString(f, Json.mapper().writeValueAsString(root));
    return f;
  }
}
