package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.HalfRun;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.verdict.Combine;
import dev.ceiling.verdict.ExperimentReport;
import dev.ceiling.verdict.Verdict;
import dev.ceiling.verdict.VerdictConfig;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A run on a relay without metrics: both the console summary and the HTML report say in words what
 * client-side evidence cannot see (admission rejections the relay signals to nobody) and why there
 * is no worker-rate estimate. report.json alone is not enough: a reader sees the console or the
 * page.
 */
class ClientEvidenceWordsTest {
  /** The words a reader must find, checked in a rendering (escaped for HTML by the caller). */
  static boolean saysWhatClientEvidenceCannotSee(String rendered, boolean html) {
    String cannotSee = Verdict.CLIENT_EVIDENCE_NOTE;
    String noWorkerRate = Verdict.CLIENT_NO_WORKER_RATE_NOTE.substring("no ".length());
    if (html) {
      cannotSee = HtmlReport.esc(cannotSee);
      noWorkerRate = HtmlReport.esc(noWorkerRate);
    }
    return rendered.contains(cannotSee)
        && rendered.contains("signals to nobody")
        && rendered.contains(noWorkerRate);
  }

  @Test
  void theSummaryAndThePageSayWhatClientEvidenceCannotSee() throws Exception {
    ExperimentReport client = clientSide(HtmlReportTest.modelReport());
    assertThat(client.verdict().clientSideEvidence()).isTrue();
    assertThat(client.verdict().workerRate()).isNull();

    String summary = Summary.text(client);
    assertThat(saysWhatClientEvidenceCannotSee(summary, false)).as(summary).isTrue();
    String html = HtmlReport.render(client);
    assertThat(saysWhatClientEvidenceCannotSee(html, true)).as("the HTML report").isTrue();
    // The page must not also give the metrics case's reason for a missing estimate.
    assertThat(html).doesNotContain("no evidence cell was steady and busy");
  }

  @Test
  void theCheckFailsOnAReportThatDoesNotSayIt() {
    // Mutant partner: the same model run with metrics evidence carries neither sentence, so the
    // check above can fail; and a summary with the lines stripped out must fail it too.
    ExperimentReport metrics = HtmlReportTest.modelReport();
    assertThat(saysWhatClientEvidenceCannotSee(Summary.text(metrics), false)).isFalse();
    assertThat(saysWhatClientEvidenceCannotSee(HtmlReport.render(metrics), true)).isFalse();
    String stripped =
        Summary.text(clientSide(metrics))
            .lines()
            .filter(l -> !l.startsWith("note: "))
            .reduce("", (a, b) -> a + b + "\n");
    assertThat(saysWhatClientEvidenceCannotSee(stripped, false)).isFalse();
  }

  /** The model run re-cast as measured without metrics: no metrics URL, no counters, no audit. */
  static ExperimentReport clientSide(ExperimentReport r) {
    try {
      return ExperimentReport.of(
          Combine.combine(clientSide(r.treatment()), clientSide(r.control())),
          VerdictConfig.defaults());
    } catch (dev.ceiling.verdict.CombineException e) {
      throw new AssertionError(e);
    }
  }

  private static HalfRun clientSide(HalfRun h) {
    RigDescriptor m = h.rig();
    RigDescriptor rig =
        new RigDescriptor(
            m.schemaVersion(),
            m.rigId(),
            m.profile(),
            m.arm(),
            m.relayPid(),
            m.relayStartInstant(),
            m.relayCommand(),
            m.relayLog(),
            m.healthUrl(),
            null,
            RigDescriptor.EVIDENCE_CLIENT,
            m.targets(),
            m.limiterSettings(),
            m.queueCapacity(),
            m.databaseReset(),
            Map.of(),
            List.of(),
            m.relayInfo(),
            m.relaySourceRevision(),
            m.relaySourceDiffDigest(),
            m.relayBinaryDigest(),
            m.generatorVersion(),
            m.generatorJarDigest(),
            null);
    List<Cell> cells =
        h.cells().stream()
            .map(
                c ->
                    c.toBuilder()
                        .counterDeltas(Map.of())
                        .auditCompleted(null)
                        .auditCompletedPerS(null)
                        .auditServiceMeanMs(null)
                        .auditBusyFraction(null)
                        .build())
            .toList();
    return new HalfRun(
        h.schemaVersion(),
        h.identity(),
        h.arm(),
        rig,
        h.startedAt(),
        h.finishedAt(),
        h.complete(),
        h.incompleteReason(),
        cells);
  }
}
