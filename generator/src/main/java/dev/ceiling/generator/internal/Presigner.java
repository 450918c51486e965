package dev.ceiling.generator.internal;

import dev.ceiling.generator.GeneratorConfig;
import dev.ceiling.generator.GeneratorException;
import dev.ceiling.generator.ProgressListener;
import dev.ceiling.generator.TargetLoad;
import dev.ceiling.nostr.EventSigner;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import java.nio.charset.StandardCharsets;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

/**
 * Signs and encodes every event of a run before the clock starts, so no signing, JSON or UTF-8
 * encoding ever lands on a slot: each slot's {@code ["EVENT",...]} text is ready UTF-8 bytes.
 */
final class Presigner {
  private Presigner() {}

  /** One {@link TargetRun} per target, every owned slot's frame signed and ready to send. */
  static List<TargetRun> presign(GeneratorConfig cfg, long durationNanos, ProgressListener progress)
      throws GeneratorException {
    byte[] nonceBytes = new byte[6];
    new SecureRandom().nextBytes(nonceBytes);
    // A per-run nonce in the content keeps ids unique across repeats against the same relay.
    String nonce = HexFormat.of().formatHex(nonceBytes);
    long createdAt = System.currentTimeMillis() / 1000;
    List<TargetRun> out = new ArrayList<>();
    for (int ti = 0; ti < cfg.loads().size(); ti++) {
      out.add(target(cfg, ti, durationNanos, nonce, createdAt, progress));
    }
    return out;
  }

  private static TargetRun target(
      GeneratorConfig cfg,
      int ti,
      long durationNanos,
      String nonce,
      long createdAt,
      ProgressListener progress)
      throws GeneratorException {
    TargetLoad load = cfg.loads().get(ti);
    Schedule s = new Schedule(load.ratePerS(), durationNanos, cfg.segment(), load.connections());
    long owned = s.ownedSlots();
    if (owned > GeneratorConfig.MAX_EVENTS_PER_TARGET) {
      throw new GeneratorException(
          GeneratorException.Kind.CONFIG,
          "target " + (ti + 1) + " needs " + owned + " events; at most 2^31 per run");
    }
    int n = (int) owned;
    progress.progress(
        "target "
            + (ti + 1)
            + ": pre-signing "
            + n
            + " events with "
            + load.identities()
            + " identities");
    Keys[] keys = new Keys[load.identities()];
    for (int i = 0; i < keys.length; i++) {
      keys[i] = Keys.generate();
    }
    byte[][] payloads = new byte[n][];
    String[] ids = new String[n];
    try {
      IntStream.range(0, n)
          .parallel()
          .forEach(
              j -> {
                String content = content(nonce, ti, s.globalSlot(j), load.target().contentBytes());
                NostrEvent e =
                    EventSigner.sign(
                        keys[j % keys.length],
                        createdAt,
                        load.target().kind(),
                        load.target().tags(),
                        content);
                ids[j] = e.id();
                payloads[j] = ("[\"EVENT\"," + e.toJson() + "]").getBytes(StandardCharsets.UTF_8);
              });
    } catch (RuntimeException e) {
      throw new GeneratorException(
          GeneratorException.Kind.INFRASTRUCTURE,
          "cannot sign events for target " + (ti + 1) + ": " + e,
          e);
    }
    Map<String, Integer> byId = new HashMap<>(n * 2);
    for (int j = 0; j < n; j++) {
      byId.put(ids[j], j);
    }
    long warmupNanos = cfg.warmup().toNanos();
    int firstMeasured = 0;
    while (firstMeasured < n && s.ownedDueOffsetNanos(firstMeasured) < warmupNanos) {
      firstMeasured++;
    }
    return new TargetRun(ti, load, s, keys, payloads, byId, firstMeasured);
  }

  /** Content: nonce, target and slot (so every event is unique), padded with '.' to size. */
  static String content(String nonce, int target, long k, int bytes) {
    StringBuilder sb = new StringBuilder(bytes);
    sb.append(nonce).append(':').append(target).append(':').append(Long.toString(k, 36));
    if (sb.length() > bytes) {
      throw new IllegalStateException(
          "content of " + bytes + " bytes cannot hold the unique prefix " + sb);
    }
    while (sb.length() < bytes) {
      sb.append('.');
    }
    return sb.toString();
  }
}
