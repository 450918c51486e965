package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.rig.RelayProfile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an experiment's output directory holds, checked before anything starts: the journals a
 * resume continues (every problem at once), or, for a new run, that there is no earlier run to
 * overwrite.
 */
final class ResumeCheck {
  private ResumeCheck() {}

  /**
   * What an earlier run left in the output directory.
   *
   * @param journals the journals a resume continues, by arm; empty for a new run
   * @param recorded the identity the journals recorded, or null for a new run
   */
  record Previous(Map<String, Journal.Contents> journals, ExperimentIdentity recorded) {}

  /**
   * The resume check, before anything starts: no relay is launched for a run that is then refused.
   *
   * @throws ExperimentException when a new run would overwrite an earlier one, or a resume has
   *     nothing to continue or contradicts its journals (every problem at once)
   */
  static Previous previous(RunOptions o) throws ExperimentException {
    Map<String, Journal.Contents> journals = journals(o.outDir(), o.arms(), o.resume());
    ExperimentIdentity recorded =
        journals.isEmpty() ? null : journals.values().iterator().next().identity();
    if (recorded != null) {
      requireSameOptions(
          o.outDir(),
          recorded,
          o.profile(),
          o.autoRateMultiples() == null ? o.rates() : null,
          o.durationS(),
          o.repeats(),
          o.seed(),
          o.equivalenceMargin());
    }
    return new Previous(journals, recorded);
  }

  /**
   * The journals of {@code arms} in {@code dir}, by arm. Without resume: empty, or an exception
   * when a journal exists. With resume: at least one journal, each readable, of its own arm, and
   * all of one identity.
   */
  static Map<String, Journal.Contents> journals(Path dir, List<String> arms, boolean resume)
      throws ExperimentException {
    Map<String, Journal.Contents> out = new LinkedHashMap<>();
    List<String> problems = new ArrayList<>();
    List<Path> existing = new ArrayList<>();
    for (String arm : arms) {
      Path j = dir.resolve("journal-" + arm + ".jsonl");
      if (!Files.exists(j)) {
        continue;
      }
      existing.add(j);
      if (!resume) {
        continue;
      }
      try {
        Journal.Contents c = Journal.read(j);
        if (!c.arm().equals(arm)) {
          problems.add(j + " is the journal of arm '" + c.arm() + "', not '" + arm + "'");
        } else {
          out.put(arm, c);
        }
      } catch (ReportFormatException e) {
        problems.add(e.getMessage());
      }
    }
    if (!resume) {
      if (!existing.isEmpty()) {
        throw new ExperimentException(
            dir
                + " already holds an earlier run ("
                + existing.get(0).getFileName()
                + "); continue it with 'ceiling experiment --resume "
                + dir
                + "' (Experiment.Builder.resume(true)), or choose another output directory",
            null);
      }
      return Map.of();
    }
    if (existing.isEmpty() && problems.isEmpty()) {
      problems.add(
          "nothing to resume in "
              + dir
              + ": no "
              + String.join(" or ", arms.stream().map(a -> "journal-" + a + ".jsonl").toList())
              + (Files.isDirectory(dir) ? "" : " (the directory does not exist)"));
    }
    if (out.size() == 2) {
      List<Journal.Contents> two = new ArrayList<>(out.values());
      List<String> differ = Differences.differences(two.get(0).identity(), two.get(1).identity());
      if (!differ.isEmpty()) {
        problems.add("the journals in " + dir + " belong to different experiments: " + differ);
      }
    }
    if (!problems.isEmpty()) {
      throw new ExperimentException("cannot resume: " + String.join("; ", problems), null);
    }
    return out;
  }

  /**
   * Refuses, listing every difference, when the options contradict the recorded identity in what is
   * known before a relay starts. {@code rates} is null when the grid is left to calibration.
   */
  static void requireSameOptions(
      Path dir,
      ExperimentIdentity recorded,
      RelayProfile profile,
      List<Double> rates,
      double durationS,
      int repeats,
      Long seed,
      Double equivalenceMargin)
      throws ExperimentException {
    List<String> differ = new ArrayList<>();
    same(differ, "profile", recorded.profile(), profile.name());
    same(differ, "treatment_arm", recorded.treatmentArm(), profile.treatmentArm());
    same(differ, "control_arm", recorded.controlArm(), profile.controlArm());
    if (rates != null) {
      same(differ, "rates", recorded.ratesPerS(), rates);
    }
    same(differ, "duration_s", recorded.durationS(), durationS);
    same(differ, "repeats", recorded.repeats(), repeats);
    same(differ, "order_seed", recorded.orderSeed(), seed);
    // The margin was declared before the first cell; a resume may not choose another one.
    same(differ, "equivalence_margin", recorded.equivalenceMargin(), equivalenceMargin);
    Differences.refuseResume(dir, "these options differ from its journals", differ, "run");
  }

  private static void same(List<String> differ, String name, Object journal, Object now) {
    Differences.same(differ, name, journal, now, "journal", "now");
  }

  /**
   * The arm's half-run on disk when it is complete and holds exactly the journal's cells, or null:
   * then the arm is resumed from its journal.
   */
  static HalfRun finishedHalf(Path half, Journal.Contents journal) {
    if (!Files.exists(half)) {
      return null;
    }
    HalfRun h;
    try {
      h = Json.read(half, HalfRun.class);
    } catch (ReportFormatException e) {
      return null;
    }
    boolean sameCells =
        h.cells().stream()
            .map(Cell::sequence)
            .sorted()
            .toList()
            .equals(journal.cells().stream().map(Cell::sequence).sorted().toList());
    return h.complete()
            && h.identity().equals(journal.identity())
            && h.arm().equals(journal.arm())
            && sameCells
        ? h
        : null;
  }
}
