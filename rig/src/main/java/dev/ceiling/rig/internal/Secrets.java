package dev.ceiling.rig.internal;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import javax.crypto.SecretKeyFactory;
import javax.crypto.spec.PBEKeySpec;

/**
 * Secret profile parameters never leave the process in clear: what the rig writes or prints holds a
 * digest instead. The digest is stable (same name and value, same digest), so an experiment's
 * identity still tells two passwords apart, and slow (PBKDF2, 100,000 rounds, salted with the
 * parameter's name), so a weak password is costly to guess from it.
 */
public final class Secrets {
  private static final int ROUNDS = 100_000;

  private Secrets() {}

  /** What is written in place of the secret {@code name}'s {@code value}. */
  public static String redacted(String name, String value) {
    try {
      PBEKeySpec spec =
          new PBEKeySpec(
              value.toCharArray(),
              ("ceiling-secret-parameter:" + name).getBytes(StandardCharsets.UTF_8),
              ROUNDS,
              128);
      byte[] key =
          SecretKeyFactory.getInstance("PBKDF2WithHmacSHA256").generateSecret(spec).getEncoded();
      return "redacted:pbkdf2-sha256:" + HexFormat.of().formatHex(key);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("PBKDF2WithHmacSHA256 is part of every JDK", e);
    }
  }

  /** {@code text} with every secret value replaced by {@code <secret NAME>}. */
  public static String scrub(String text, Map<String, String> secrets) {
    if (text == null) {
      return null;
    }
    String out = text;
    for (Map.Entry<String, String> e : secrets.entrySet()) {
      if (!e.getValue().isEmpty()) {
        out = out.replace(e.getValue(), "<secret " + e.getKey() + ">");
      }
    }
    return out;
  }

  /** Each element scrubbed. */
  public static List<String> scrub(List<String> texts, Map<String, String> secrets) {
    if (texts == null) {
      return null;
    }
    List<String> out = new ArrayList<>();
    for (String t : texts) {
      out.add(scrub(t, secrets));
    }
    return out;
  }
}
