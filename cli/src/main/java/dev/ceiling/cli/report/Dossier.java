package dev.ceiling.cli.report;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.experiment.DelaySweepFile;
import dev.ceiling.experiment.DelaySweepReport;
import dev.ceiling.experiment.ExperimentException;
import dev.ceiling.experiment.ExplainPlan;
import dev.ceiling.experiment.ExplainResult;
import dev.ceiling.experiment.IdentitiesRoundReport;
import dev.ceiling.experiment.Outcome;
import dev.ceiling.experiment.SplitRoundReport;
import dev.ceiling.verdict.ExperimentReport;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * {@code dossier.json}: what {@code ceiling explain} found, answers first. Each round's answer is
 * the round's own sentence, read from its own report file (the A/B's {@link Answer}, the delay
 * sweep's answer, the lock and defaults rounds' verdict words), so the dossier can never say more
 * than a round decided; a round that failed, could not run on the profile or was not finished says
 * so in one line, and the others' answers stand.
 *
 * @param schema always {@link #SCHEMA}
 * @param profile the relay profile's name
 * @param outcome the whole run's outcome (ESTABLISHED only when every round that runs is)
 * @param answers the first paragraph: every round's answer in words and figures, in the plan's
 *     order
 * @param rounds each round: its status, answer, page and problems
 */
public record Dossier(
    String schema, String profile, Outcome outcome, String answers, List<Entry> rounds) {

  /** The file's schema name. */
  public static final String SCHEMA = "ceiling-dossier/1";

  /** The JSON file's name in the run's directory. */
  public static final String FILE = "dossier.json";

  public Dossier {
    Objects.requireNonNull(profile, "profile must not be null");
    Objects.requireNonNull(outcome, "outcome must not be null");
    Objects.requireNonNull(answers, "answers must not be null");
    rounds = List.copyOf(rounds);
  }

  /** How a round stands, in the dossier's words. */
  public enum Status {
    ESTABLISHED,
    NOT_ESTABLISHED,
    FAILED,
    CANNOT_RUN,
    NOT_FINISHED;

    /** "not established", "cannot run". */
    public String words() {
      return name().toLowerCase(java.util.Locale.ROOT).replace('_', ' ');
    }
  }

  /**
   * One round.
   *
   * @param round the round in words
   * @param kind which round
   * @param status how it stands
   * @param answer its answer in one sentence (from its file), or why it has none
   * @param page its page (its HTML, else its JSON) relative to the run's directory, or null
   * @param problems what stopped it or why it cannot run, one line each
   */
  public record Entry(
      String round,
      ExplainPlan.Kind kind,
      Status status,
      String answer,
      String page,
      List<String> problems) {
    public Entry {
      Objects.requireNonNull(round, "round must not be null");
      Objects.requireNonNull(status, "status must not be null");
      Objects.requireNonNull(answer, "answer must not be null");
      problems = List.copyOf(problems);
    }

    /** "Delay sweep on link 'db': k = ...", the entry's part of the first paragraph. */
    String sentence() {
      String s = Character.toUpperCase(round.charAt(0)) + round.substring(1) + ": " + answer;
      return s.endsWith(".") ? s : s + ".";
    }
  }

  /** Reads each round's own file under {@code r.outDir()}; pages are {@code pages} relative. */
  public static Dossier of(ExplainResult r) {
    List<Entry> entries = new ArrayList<>();
    for (ExplainResult.RoundEnd e : r.rounds()) {
      entries.add(entry(r.outDir(), e));
    }
    return new Dossier(
        SCHEMA,
        r.plan().profile(),
        r.outcome(),
        String.join(" ", entries.stream().map(Entry::sentence).toList()),
        entries);
  }

  private static Entry entry(Path outDir, ExplainResult.RoundEnd e) {
    String first = e.problems().isEmpty() ? null : e.problems().get(0);
    return switch (e.ran()) {
      case NOT_APPLICABLE ->
          new Entry(
              e.name(), e.kind(), Status.CANNOT_RUN, "cannot run: " + first, null, e.problems());
      case NOT_FINISHED ->
          new Entry(
              e.name(),
              e.kind(),
              Status.NOT_FINISHED,
              "not finished: " + first,
              null,
              e.problems());
      case RAN -> ran(outDir, e, first);
    };
  }

  private static Entry ran(Path outDir, ExplainResult.RoundEnd e, String first) {
    Status status =
        switch (e.outcome()) {
          case ESTABLISHED -> Status.ESTABLISHED;
          case NOT_ESTABLISHED -> Status.NOT_ESTABLISHED;
          case BAD_INPUT, INFRASTRUCTURE -> Status.FAILED;
        };
    String answer = null;
    if (e.file() != null) {
      try {
        answer = answerOf(e.kind(), outDir.resolve(e.file()));
      } catch (ReportFormatException | ExperimentException | RuntimeException x) {
        answer = null;
        first = first == null ? "its file cannot be read: " + x.getMessage() : first;
      }
    }
    if (status == Status.FAILED) {
      // A failure leads: what the round measured before it is no answer to its question.
      answer =
          "failed: "
              + (first == null ? "no reason given" : first)
              + (answer == null ? "" : "; what it measured reads: " + answer);
    } else if (answer == null) {
      answer = "failed: " + (first == null ? "it wrote no answer" : first);
      status = Status.FAILED;
    }
    return new Entry(e.name(), e.kind(), status, answer, page(outDir, e), e.problems());
  }

  /** The round's own answer sentence from its own file, or null when it holds none. */
  private static String answerOf(ExplainPlan.Kind kind, Path file)
      throws ReportFormatException, ExperimentException {
    return switch (kind) {
      case AB -> Answer.of(Json.read(file, ExperimentReport.class)).sentence();
      case DELAY_SWEEP -> {
        DelaySweepReport r = DelaySweepFile.read(file);
        yield withoutLink(r.answer(), r.plan().link());
      }
      case SPLIT -> {
        SplitRoundReport s = Json.read(file, SplitRoundReport.class);
        yield s.verdict() == null
            ? null
            : s.verdict().answer().name().replace('_', ' ') + ": " + s.verdict().words();
      }
      case DEFAULTS -> {
        IdentitiesRoundReport d = Json.read(file, IdentitiesRoundReport.class);
        yield d.verdict() == null ? null : d.verdict().words();
      }
    };
  }

  /**
   * A sweep's answer without its leading "link 'db': " (the latency slope's answer names its link
   * first), since the round's name in the paragraph already names it: "Delay sweep on link 'db':
   * 1.0 [0.8, 1.2] sequential round trips ...", not "... on link 'db': link 'db': 1.0 ...".
   */
  static String withoutLink(String answer, String link) {
    String prefix = "link '" + link + "': ";
    return answer != null && answer.startsWith(prefix) ? answer.substring(prefix.length()) : answer;
  }

  /** The round's HTML page when it has one, else its JSON file; null when neither exists. */
  private static String page(Path outDir, ExplainResult.RoundEnd e) {
    if (e.file() == null) {
      return null;
    }
    String html =
        switch (e.kind()) {
          case AB -> e.dir() + "/report.html";
          case DELAY_SWEEP -> e.dir() + "/" + DelaySweepHtml.FILE;
          case DEFAULTS -> e.dir() + "/" + DefaultsRoundHtml.FILE;
          case SPLIT -> null;
        };
    if (html != null && Files.exists(outDir.resolve(html))) {
      return html;
    }
    return Files.exists(outDir.resolve(e.file())) ? e.file() : null;
  }
}
