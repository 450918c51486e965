package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.model.ExperimentIdentity;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.verdict.VerdictConfig;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * A delay sweep's {@code sensitivity.json} as one session writes it: rewritten whole (atomically)
 * after every cell from every cell measured so far, an earlier session's included, so a crash at
 * any point leaves the file with every cell measured before it.
 */
final class SensitivityReportFile {
  private final Path file;
  private final String profile;
  private final RigDescriptor rig;
  private final ExperimentIdentity judged;
  private final SensitivityPlan plan;
  private final VerdictConfig cfg;
  private final Instant started;
  private final List<SensitivitySession> earlier;
  private final Instant sessionStarted = Instant.now();
  private final String sessionRigId;
  private final List<SensitivityAnalysis.Measured> measured = new ArrayList<>();
  private final List<Integer> thisSession = new ArrayList<>();

  /**
   * @param rig the first session's relay, credentials redacted
   * @param started when the first session started
   * @param earlier the sessions before this one, whose cells {@code measured} holds
   * @param measured the cells the earlier sessions measured, in run order
   * @param sessionRigId the rig id of this session's relay
   */
  private SensitivityReportFile(
      Path file,
      String profile,
      RigDescriptor rig,
      ExperimentIdentity judged,
      SensitivityPlan plan,
      VerdictConfig cfg,
      Instant started,
      List<SensitivitySession> earlier,
      List<SensitivityAnalysis.Measured> measured,
      String sessionRigId) {
    this.file = file;
    this.profile = profile;
    this.rig = rig;
    this.judged = judged;
    this.plan = plan;
    this.cfg = cfg;
    this.started = started;
    this.earlier = List.copyOf(earlier);
    this.measured.addAll(measured);
    this.sessionRigId = sessionRigId;
  }

  /** The first session's file: no cell yet. */
  static SensitivityReportFile first(
      Path file,
      String profile,
      RigDescriptor rig,
      ExperimentIdentity judged,
      SensitivityPlan plan,
      VerdictConfig cfg) {
    return new SensitivityReportFile(
        file, profile, rig, judged, plan, cfg, Instant.now(), List.of(), List.of(), rig.rigId());
  }

  /**
   * A resumed session's file: the stored report's plan, relay, start and cells, and its sessions
   * followed by this one.
   */
  static SensitivityReportFile resumed(
      Path file,
      SensitivityReport stored,
      ExperimentIdentity judged,
      VerdictConfig cfg,
      String sessionRigId) {
    return new SensitivityReportFile(
        file,
        stored.profile(),
        stored.rig(),
        judged,
        stored.plan(),
        cfg,
        stored.startedAt(),
        SensitivityResume.sessions(stored),
        SensitivityResume.measured(stored),
        sessionRigId);
  }

  /** The planned sequences measured so far, in any session. */
  Set<Integer> measuredSequences() {
    Set<Integer> out = new TreeSet<>();
    measured.forEach(m -> out.add(m.planned().sequence()));
    return out;
  }

  /** Adds a cell this session measured; {@link #write} puts it in the file. */
  void add(SensitivityAnalysis.Measured m) {
    measured.add(m);
    thisSession.add(m.planned().sequence());
  }

  /** The last write, and the outcome it reads as. */
  SensitivityResult finish(RoundEnd end) {
    SensitivityReport report;
    try {
      report = write(end);
    } catch (IOException e) {
      return SensitivityResult.failed(Outcome.INFRASTRUCTURE, "cannot write " + file + ": " + e);
    }
    Outcome outcome =
        end instanceof RoundEnd.Interrupted
            ? Outcome.NOT_ESTABLISHED
            : end.failed()
                ? Outcome.INFRASTRUCTURE
                : report.established() ? Outcome.ESTABLISHED : Outcome.NOT_ESTABLISHED;
    return new SensitivityResult(
        report, file, outcome, end.reason() == null ? List.of() : List.of(end.reason()));
  }

  /** Writes the report of the cells so far, as the sweep stands or ended. */
  SensitivityReport write(RoundEnd ended) throws IOException {
    int planned = plan.cells().size();
    boolean complete = measured.size() == planned;
    String reason = ended.incompleteReason(measured.size(), planned);
    Instant now = ended.ended() ? Instant.now() : null;
    List<SensitivitySession> sessions = new ArrayList<>(earlier);
    sessions.add(
        new SensitivitySession(earlier.size() + 1, sessionStarted, now, sessionRigId, thisSession));
    SensitivityAnalysis.Progress p =
        new SensitivityAnalysis.Progress(started, now, complete, reason, sessions);
    SensitivityReport report =
        SensitivityAnalysis.report(profile, rig, judged, plan, measured, p, cfg);
    Json.write(file, report);
    return report;
  }
}
