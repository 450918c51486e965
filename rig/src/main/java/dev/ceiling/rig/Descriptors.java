package dev.ceiling.rig;

import dev.ceiling.core.model.ReadyLine;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.SchemaVersion;
import dev.ceiling.core.model.Target;
import dev.ceiling.rig.internal.ProcessInspector.Identity;
import dev.ceiling.rig.internal.Provenance;
import dev.ceiling.rig.internal.Secrets;
import java.io.IOException;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The descriptor, built in one place: what was planned, the relay's identity, its READY line and
 * provenance. Secret parameter values never reach it: parameters appear as a digest, and the
 * command line and READY values are scrubbed, since a relay may echo what it was given.
 */
final class Descriptors {
  private Descriptors() {}

  /**
   * What identifies the relay's build, read before the relay starts so a bad path fails fast.
   *
   * @param source the checkout's revision and diff digest, or null without {@code source_dir}
   * @param binaryDigest SHA-256 of the binary, or null without {@code binary_path}
   */
  record Build(Provenance.SourceState source, String binaryDigest) {
    static Build of(LaunchPlan plan, RelayProfile p) throws RigException {
      Provenance.SourceState source = null;
      if (plan.sourceDir() != null) {
        try {
          source = Provenance.source(plan.sourceDir());
        } catch (IOException e) {
          throw new RigException(
              RigException.Kind.BAD_INPUT,
              p.origin()
                  + ": source_dir "
                  + plan.sourceDir()
                  + " has no readable git state: "
                  + e.getMessage(),
              e);
        }
      }
      String binary = null;
      if (plan.binary() != null) {
        try {
          binary = Provenance.digest(plan.binary());
        } catch (IOException e) {
          throw new RigException(
              RigException.Kind.BAD_INPUT,
              p.origin()
                  + ": binary_path "
                  + plan.binary()
                  + " cannot be digested: "
                  + e.getMessage(),
              e);
        }
      }
      return new Build(source, binary);
    }
  }

  /** The profile's control check with every placeholder expanded, or null when it has none. */
  private static java.util.List<String> controlCheck(LaunchPlan plan, RelayProfile p) {
    if (p.controlCheck() == null) {
      return null;
    }
    return p.controlCheck().stream()
        .map(a -> dev.ceiling.rig.internal.Templates.expand(a, plan.placeholders()))
        .toList();
  }

  /**
   * The descriptor of a started ({@code relay} non-null) or attached ({@code relay} null) relay;
   * its URLs connect to addresses ({@link LoopbackUrls}), each replaced name said in {@code notes}.
   */
  static RigDescriptor build(
      LaunchPlan plan,
      UpOptions o,
      Identity relay,
      Optional<ReadyLine> ready,
      Build build,
      java.util.List<String> notes) {
    RelayProfile p = o.profile();
    Map<String, String> secrets = p.secretValues(o.overrides());
    return new RigDescriptor(
        SchemaVersion.CURRENT,
        plan.rigId(),
        p.name(),
        o.arm(),
        relay == null ? null : relay.pid(),
        relay == null ? null : relay.startInstant(),
        relay == null ? null : Secrets.scrub(relay.command(), secrets),
        relay == null ? null : plan.log().toString(),
        LoopbackUrls.pin("health_url", plan.healthUrl(), notes),
        LoopbackUrls.pin("metrics_url", plan.metricsUrl(), notes),
        p.contaminationEvidence().key(),
        plan.targets().stream().map(t -> LoopbackUrls.pin(t, notes)).toList(),
        plan.limiter(),
        o.effectiveQueueCapacity(),
        o.reset(),
        new TreeMap<>(p.metricMapping()),
        p.positiveControlled(),
        relayInfo(plan, o, ready, secrets),
        build.source() == null ? null : build.source().revision(),
        build.source() == null ? null : build.source().diffDigest(),
        build.binaryDigest(),
        Provenance.ceilingVersion(),
        Provenance.codeSourceDigest(Target.class),
        controlCheck(plan, p));
  }

  /**
   * {@code parameter.<name>} (secrets redacted), {@code port.<name>}, {@code
   * upstream.<name>.target|address|via} (via: {@code proxy} or {@code direct}), then the READY
   * pairs.
   */
  private static Map<String, String> relayInfo(
      LaunchPlan plan, UpOptions o, Optional<ReadyLine> ready, Map<String, String> secrets) {
    RelayProfile p = o.profile();
    Map<String, String> info = new TreeMap<>();
    for (Map.Entry<String, String> e : p.parameters().entrySet()) {
      String value = o.overrides().getOrDefault(e.getKey(), e.getValue());
      info.put(
          "parameter." + e.getKey(),
          p.isSecret(e.getKey()) ? Secrets.redacted(e.getKey(), value) : value);
    }
    plan.ports().forEach((k, v) -> info.put("port." + k, Integer.toString(v)));
    for (UpstreamRoute r : plan.upstreams()) {
      info.put("upstream." + r.name() + ".target", r.target().toString());
      info.put("upstream." + r.name() + ".address", r.address().toString());
      info.put("upstream." + r.name() + ".via", r.proxied() ? "proxy" : "direct");
    }
    ready.ifPresent(r -> r.fields().forEach((k, v) -> info.put(k, Secrets.scrub(v, secrets))));
    return info;
  }
}
