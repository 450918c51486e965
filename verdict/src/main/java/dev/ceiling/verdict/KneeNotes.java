package dev.ceiling.verdict;

import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.verdict.internal.Knee;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/** The report-only knee bracket of {@link Verdict} and the sentence that explains it. Pure. */
final class KneeNotes {
  private KneeNotes() {}

  static KneeBracket knee(
      ExperimentIdentity id, String arm, List<RateRow> rows, boolean treatment, VerdictConfig cfg) {
    double threshold = 1 - cfg.kneeEpsilon();
    List<Knee.State> states = new ArrayList<>();
    for (RateRow r : rows) {
      ArmStats s = treatment ? r.treatment() : r.control();
      if (s == null || s.upper() == null) {
        states.add(Knee.State.UNKNOWN);
      } else {
        states.add(s.upper() < threshold ? Knee.State.BELOW : Knee.State.TRACKING);
      }
    }
    Knee.Result k = Knee.find(states);
    List<Double> grid = id.ratesPerS();
    Double kneeRate = k.knee() == null ? null : grid.get(k.knee());
    Double passing = k.highestPassing() == null ? null : grid.get(k.highestPassing());
    StringBuilder note = new StringBuilder();
    if (kneeRate != null) {
      note.append("knee at ").append(Fmt.num(kneeRate)).append("/s");
      if (passing != null) {
        note.append(", highest passing rate ").append(Fmt.num(passing)).append("/s");
      }
    } else {
      note.append("no knee confirmed on the grid");
    }
    int last = grid.size() - 1;
    List<Integer> lone = k.loneDips().stream().filter(i -> i != last).toList();
    if (!lone.isEmpty()) {
      note.append("; lone dip(s) at ")
          .append(
              lone.stream().map(i -> Fmt.num(grid.get(i)) + "/s").collect(Collectors.joining(", ")))
          .append(" (not a knee: the next rate did not stay below)");
    }
    if (k.loneDips().contains(last)) {
      note.append("; below at the last rate, ")
          .append(Fmt.num(grid.get(last)))
          .append("/s, unconfirmed: the grid has no higher rate to show it stays below");
    }
    note.append("; report-only, nothing gates on it");
    return new KneeBracket(arm, passing, kneeRate, threshold, note.toString());
  }
}
