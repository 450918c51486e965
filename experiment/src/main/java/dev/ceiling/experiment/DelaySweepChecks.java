package dev.ceiling.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/** The delay sweep's builder settings, checked all at once before anything starts. */
final class DelaySweepChecks {
  private DelaySweepChecks() {}

  /**
   * Every problem with the settings so far, at once; empty when they are good (the output directory
   * is {@link DelaySweepOptions.Builder#build()}'s to check). A link the profile does not declare
   * is named with the ones it does.
   */
  static List<String> problems(DelaySweepOptions.Builder b) {
    List<String> out = new ArrayList<>();
    if (b.profile == null) {
      out.add("profile is required");
    } else {
      List<String> declared = b.profile.linkNames();
      if (declared.isEmpty()) {
        out.add(
            "profile '"
                + b.profile.name()
                + "' declares no upstreams and no delay controls, so no link can be swept");
      } else if (b.links != null) {
        if (b.link != null || b.expectedRoundTrips != null) {
          out.add("a sweep per link takes links and counts by link, not one link or count");
        }
        out.addAll(LinkSweeps.problems(b.links, declared, b.expectedByLink, !b.contrast.isEmpty()));
      } else if (!b.expectedByLink.isEmpty()) {
        out.add("counts by link are for a sweep per link (links); one link takes one count");
      } else if (b.link == null || !declared.contains(b.link)) {
        out.add(
            "link '"
                + b.link
                + "' is not a link of profile '"
                + b.profile.name()
                + "', which declares "
                + declared);
      }
    }
    if (b.delaysMs == null || b.delaysMs.stream().anyMatch(Objects::isNull)) {
      out.add("delays must be a list of numbers, got " + b.delaysMs);
    } else {
      out.addAll(SensitivityPlan.problemsOfGrid(b.delaysMs));
    }
    if (b.repeats < 2) {
      out.add(
          "repeats must be >= 2 (the lack-of-fit test needs the scatter of repeats), got "
              + b.repeats);
    }
    if (b.duration == null || b.duration.isZero() || b.duration.isNegative()) {
      out.add("duration must be > 0, got " + b.duration);
    }
    if (b.rate != null && !(b.rate > 0 && Double.isFinite(b.rate))) {
      out.add("rate must be a finite number > 0 events/s, got " + b.rate);
    }
    if (b.expectedRoundTrips != null
        && !(b.expectedRoundTrips >= 0 && Double.isFinite(b.expectedRoundTrips))) {
      out.add("expected round trips must be a finite number >= 0, got " + b.expectedRoundTrips);
    }
    if (!(b.margin > 0 && Double.isFinite(b.margin))) {
      out.add("margin must be a finite number > 0 round trips per event, got " + b.margin);
    }
    if (b.profile != null) {
      out.addAll(contrastProblems(b));
    }
    if (b.attached != null) {
      out.addAll(attachedProblems(b));
    }
    return out;
  }

  /**
   * A running relay is swept as it was started: from this profile, with the proxy on the link, and
   * with no parameters of the sweep's own.
   */
  private static List<String> attachedProblems(DelaySweepOptions.Builder b) {
    List<String> out = new ArrayList<>();
    String started = b.attached.descriptor().profile();
    if (b.profile != null && !b.profile.name().equals(started)) {
      out.add(
          "the running relay was started from profile '"
              + started
              + "', not '"
              + b.profile.name()
              + "'");
    }
    if (b.link != null
        && !b.attached.proxies().containsKey(b.link)
        && !b.attached.delayControls().containsKey(b.link)) {
      out.add(
          "the running relay has no delay proxy or delay control on link '"
              + b.link
              + "' (it was started with "
              + DelayLink.names(b.attached)
              + "; upstreams linked directly have no proxy)");
    }
    if (!b.relayOverrides.isEmpty()) {
      out.add(
          "relay overrides "
              + new java.util.TreeMap<>(b.relayOverrides)
              + " cannot apply to a running relay: start it with them");
    }
    if (!b.contrast.isEmpty()) {
      out.add(
          "a contrast needs a second relay the sweep starts itself; a sweep of a running relay"
              + " measures one arm");
    }
    if (b.resume) {
      out.add(
          "resume starts a relay afresh for the missing cells; a sweep of a running relay"
              + " cannot resume one");
    }
    return out;
  }

  /**
   * A contrast parameter must be one the profile declares, and must change what the base arm runs:
   * a contrast equal to the base measures nothing.
   */
  static List<String> contrastProblems(DelaySweepOptions.Builder b) {
    List<String> out = new ArrayList<>();
    for (Map.Entry<String, String> e : new java.util.TreeMap<>(b.contrast).entrySet()) {
      String base =
          b.relayOverrides.getOrDefault(e.getKey(), b.profile.parameters().get(e.getKey()));
      if (!b.profile.parameters().containsKey(e.getKey())) {
        out.add(
            "contrast "
                + e.getKey()
                + " is not a parameter of profile '"
                + b.profile.name()
                + "', which declares "
                + new java.util.TreeSet<>(b.profile.parameters().keySet()));
      } else if (e.getValue().equals(base)) {
        out.add(
            "contrast "
                + e.getKey()
                + "="
                + e.getValue()
                + " is what the base arm runs already: the arms would not differ");
      }
    }
    return out;
  }
}
