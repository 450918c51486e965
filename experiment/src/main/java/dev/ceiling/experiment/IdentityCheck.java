package dev.ceiling.experiment;

import dev.ceiling.core.model.ExperimentIdentity;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Lists every field in which two experiment identities differ (for resume). */
final class IdentityCheck {
  private IdentityCheck() {}

  static List<String> differences(ExperimentIdentity journal, ExperimentIdentity now) {
    List<String> out = new ArrayList<>();
    for (RecordComponent c : ExperimentIdentity.class.getRecordComponents()) {
      try {
        Object a = c.getAccessor().invoke(journal);
        Object b = c.getAccessor().invoke(now);
        if (!Objects.equals(a, b)) {
          out.add(c.getName() + ": journal " + a + ", this sweep " + b);
        }
      } catch (IllegalAccessException | InvocationTargetException e) {
        throw new IllegalStateException("cannot read ExperimentIdentity." + c.getName(), e);
      }
    }
    return out;
  }
}
