package dev.ceiling.experiment;

import dev.ceiling.rig.AdmissionLimit;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.verdict.DeclaredBudget;
import java.util.List;

/**
 * The profile's declared admission limits ({@code admission_limits}) that apply to the defaults
 * round's offer, as the verdict's budgets: a limit on events applies when it names no kinds or a
 * kind one of the profile's targets sends; a limit on messages applies to every EVENT; a limit on
 * connections applies too (the cells open connections), though only its window counts. Every
 * applying limit's window must be covered by the cells; the per-key and per-address limits on
 * events and messages predict the crossover.
 */
final class AdmissionBudgets {
  private AdmissionBudgets() {}

  /** The declared limits that apply to the offer of this profile's targets. */
  static List<DeclaredBudget> of(RelayProfile profile) {
    List<Integer> kinds =
        profile.targets().stream().map(RelayProfile.TargetTemplate::kind).toList();
    return profile.admissionLimits().stream()
        .filter(l -> applies(l, kinds))
        .map(l -> new DeclaredBudget(scope(l), l.limit(), l.window().toNanos() / 1e9, l.describe()))
        .toList();
  }

  private static boolean applies(AdmissionLimit l, List<Integer> kinds) {
    return l.counts() != AdmissionLimit.Counted.EVENTS
        || l.kinds().isEmpty()
        || l.kinds().stream()
            .anyMatch(r -> kinds.stream().anyMatch(k -> r.first() <= k && k <= r.last()));
  }

  private static DeclaredBudget.Scope scope(AdmissionLimit l) {
    if (l.counts() == AdmissionLimit.Counted.CONNECTIONS) {
      return DeclaredBudget.Scope.OTHER;
    }
    return switch (l.per()) {
      case SIGNING_KEY -> DeclaredBudget.Scope.SIGNING_KEY;
      case SOURCE_ADDRESS -> DeclaredBudget.Scope.SOURCE_ADDRESS;
      case CONNECTION -> DeclaredBudget.Scope.OTHER;
    };
  }
}
