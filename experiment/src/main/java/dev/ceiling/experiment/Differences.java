package dev.ceiling.experiment;

import com.google.common.base.CaseFormat;
import dev.ceiling.core.model.ExperimentIdentity;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Every field in which two declarations of one run differ, one line each ("field STORED x, NOW y"):
 * how every resume names what it refuses (an A/B's journal against its options, a delay sweep's
 * stored plan and relay against the ones now) and how an experiment compares its arms. Records are
 * compared component by component, so a field added to one is compared without a change here.
 */
final class Differences {
  private Differences() {}

  static List<String> differences(ExperimentIdentity journal, ExperimentIdentity now) {
    return differences(journal, now, "journal", "this sweep");
  }

  /** Every field in which the control arm's identity differs from the treatment arm's. */
  static List<String> armsDiffer(ExperimentIdentity treatment, ExperimentIdentity control) {
    return differences(treatment, control, "treatment", "control");
  }

  /** Every field in which {@code journal} (named {@code nameA}) differs from {@code now}. */
  static List<String> differences(
      ExperimentIdentity journal, ExperimentIdentity now, String nameA, String nameB) {
    List<String> out = new ArrayList<>();
    for (RecordComponent c : ExperimentIdentity.class.getRecordComponents()) {
      same(out, c.getName() + ":", component(c, journal), component(c, now), nameA, nameB);
    }
    return out;
  }

  /**
   * Every component but {@code skipped} in which {@code stored} differs from {@code now}, named in
   * snake case after {@code prefix} (e.g. "plan.seed sensitivity.json 3, now 4").
   */
  static <R extends Record> List<String> components(
      R stored, R now, String skipped, String prefix, String storedLabel, String nowLabel) {
    Objects.requireNonNull(stored, "stored");
    Objects.requireNonNull(now, "now");
    List<String> out = new ArrayList<>();
    for (RecordComponent c : stored.getClass().getRecordComponents()) {
      if (!c.getName().equals(skipped)) {
        String field = CaseFormat.LOWER_CAMEL.to(CaseFormat.LOWER_UNDERSCORE, c.getName());
        same(out, prefix + field, component(c, stored), component(c, now), storedLabel, nowLabel);
      }
    }
    return out;
  }

  /** Adds "name STORED stored, NOW now" to {@code out} when the two differ. */
  static void same(
      List<String> out,
      String name,
      Object stored,
      Object now,
      String storedLabel,
      String nowLabel) {
    if (!Objects.equals(stored, now)) {
      out.add(name + " " + storedLabel + " " + stored + ", " + nowLabel + " " + now);
    }
  }

  /**
   * Refuses a resume whose options declare another run than {@code dir} holds, naming every
   * difference: "cannot resume DIR: WHAT: d1; d2; pass the options the RUN was started with".
   * Returns when there is no difference.
   */
  static void refuseResume(Path dir, String what, List<String> differ, String run)
      throws ExperimentException {
    if (!differ.isEmpty()) {
      throw new ExperimentException(
          "cannot resume "
              + dir
              + ": "
              + what
              + ": "
              + String.join("; ", differ)
              + "; pass the options the "
              + run
              + " was started with",
          null);
    }
  }

  private static Object component(RecordComponent c, Record r) {
    try {
      return c.getAccessor().invoke(r);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException(
          "cannot read " + r.getClass().getSimpleName() + "." + c.getName(), e);
    }
  }
}
