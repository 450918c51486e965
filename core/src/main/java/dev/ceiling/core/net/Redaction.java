package dev.ceiling.core.net;

import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import java.util.List;
import java.util.regex.Pattern;

/**
 * The one rule for credentials in URLs, applied to everything Ceiling prints or stores except the
 * rig's own owner-only descriptor file (from which the sweep must still connect): a URL's user-info
 * ({@code user:pass@}) becomes {@code redacted@}, and the value of a query parameter whose name
 * looks like a credential ({@code auth}, {@code token}, {@code key}, {@code secret}, {@code pass},
 * {@code pwd}, {@code sig}, {@code credential}, {@code session}, in any case and as part of a
 * longer name such as {@code api_key}) becomes {@code redacted}. Works on a URL or on free text
 * holding URLs (an error message, a progress line). Pure string work; thread-safe.
 */
public final class Redaction {
  /** What replaces a secret. */
  public static final String REDACTED = "redacted";

  private static final Pattern USER_INFO =
      Pattern.compile("(?<scheme>\\b[a-zA-Z][a-zA-Z0-9+.-]*://)[^/\\s@?#\"'<>]+@");

  private static final Pattern SECRET_PARAMETER =
      Pattern.compile(
          "(?<lead>[?&;])(?<name>[^=&;\\s#\"'<>]*"
              + "(?:token|auth|key|secret|pass|pwd|sig|credential|session)"
              + "[^=&;\\s#\"'<>]*)=[^&;\\s#\"'<>]*",
          Pattern.CASE_INSENSITIVE);

  private Redaction() {}

  /** {@code text} with every URL's user-info and credential-like parameter values redacted. */
  public static String redact(String text) {
    if (text == null) {
      return null;
    }
    String out = USER_INFO.matcher(text).replaceAll("${scheme}" + REDACTED + "@");
    return SECRET_PARAMETER.matcher(out).replaceAll("${lead}${name}=" + REDACTED);
  }

  /** Each element redacted. */
  public static List<String> redact(List<String> texts) {
    return texts == null ? null : texts.stream().map(Redaction::redact).toList();
  }

  /** The target with its URL redacted. */
  public static Target redact(Target t) {
    return new Target(
        t.community(), redact(t.url()), t.hostHeader(), t.tags(), t.kind(), t.contentBytes());
  }

  private static java.util.Map<String, String> redactValues(java.util.Map<String, String> m) {
    java.util.Map<String, String> out = new java.util.TreeMap<>();
    m.forEach((k, v) -> out.put(k, redact(v)));
    return out;
  }

  /**
   * The descriptor as it may be printed or stored in a half-run or report: health, metrics and
   * target URLs, the relay's command line and relay_info's values redacted. Not for connecting.
   */
  public static RigDescriptor redact(RigDescriptor d) {
    return new RigDescriptor(
        d.schemaVersion(),
        d.rigId(),
        d.profile(),
        d.arm(),
        d.relayPid(),
        d.relayStartInstant(),
        redact(d.relayCommand()),
        d.relayLog(),
        redact(d.healthUrl()),
        redact(d.metricsUrl()),
        d.contaminationEvidence(),
        d.targets().stream().map(Redaction::redact).toList(),
        d.limiterSettings(),
        d.queueCapacity(),
        d.databaseReset(),
        d.metricMapping(),
        d.positiveControlled(),
        redactValues(d.relayInfo()),
        d.relaySourceRevision(),
        d.relaySourceDiffDigest(),
        d.relayBinaryDigest(),
        d.generatorVersion(),
        d.generatorJarDigest(),
        d.controlCheck() == null ? null : redact(d.controlCheck()));
  }
}
