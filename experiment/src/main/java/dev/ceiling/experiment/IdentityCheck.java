package dev.ceiling.experiment;

import dev.ceiling.core.model.ExperimentIdentity;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Lists every field in which two experiment identities differ: a journal's and this sweep's (for
 * resume), the treatment arm's and the control arm's (for an experiment), or a delay sweep's stored
 * relay's and its resumed one's.
 */
final class IdentityCheck {
  private IdentityCheck() {}

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
      try {
        Object a = c.getAccessor().invoke(journal);
        Object b = c.getAccessor().invoke(now);
        if (!Objects.equals(a, b)) {
          out.add(c.getName() + ": " + nameA + " " + a + ", " + nameB + " " + b);
        }
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read ExperimentIdentity." + c.getName(), e);
      }
    }
    return out;
  }
}
