package dev.ceiling.relay;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;

/**
 * The audit log's hash chain: row {@code seq} stores {@code prev_hash} (the previous row's hash, or
 * 64 zeros for the first row) and {@code hash = SHA-256(prev_hash | seq | community | event_id |
 * pubkey | kind | created_at)} in lower-case hex.
 */
public final class AuditChain {
  /** prev_hash of the first row. */
  public static final String GENESIS = "0".repeat(64);

  private AuditChain() {}

  /** The hash of one row; pure. */
  public static String hash(
      String prevHash,
      long seq,
      String community,
      String eventId,
      String pubkey,
      int kind,
      long createdAt) {
    MessageDigest sha;
    try {
      sha = MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK ships SHA-256", e);
    }
    String material =
        String.join(
            "|",
            prevHash,
            Long.toString(seq),
            community,
            eventId,
            pubkey,
            Integer.toString(kind),
            Long.toString(createdAt));
    return HexFormat.of().formatHex(sha.digest(material.getBytes(StandardCharsets.UTF_8)));
  }

  /**
   * Outcome of a verification.
   *
   * @param rows rows read
   * @param problem the first broken link, or empty when the chain verifies end to end
   */
  public record Verification(long rows, Optional<String> problem) {
    /** True when every row links to its predecessor and its hash recomputes. */
    public boolean ok() {
      return problem.isEmpty();
    }
  }

  /**
   * Reads {@code table} in seq order and checks every link: seq runs 1, 2, 3..., each prev_hash
   * equals the previous hash (GENESIS for the first) and each hash recomputes.
   *
   * @param table {@code audit_log}, a further chain's {@code audit_log_k} or {@code
   *     audit_calibration}
   */
  public static Verification verify(Connection c, String table) throws SQLException {
    // The name goes into SQL text: only the relay's own table names.
    if (!table.matches("audit_log(_[1-9][0-9]*)?|audit_calibration")) {
      throw new IllegalArgumentException(
          "table must be audit_log, audit_log_<k> or audit_calibration, got " + table);
    }
    long rows = 0;
    String prev = GENESIS;
    try (Statement s = c.createStatement();
        ResultSet r =
            s.executeQuery(
                "SELECT seq, community, event_id, pubkey, kind, created_at, prev_hash, hash FROM "
                    + table
                    + " ORDER BY seq")) {
      while (r.next()) {
        rows++;
        long seq = r.getLong(1);
        if (seq != rows) {
          return new Verification(
              rows, Optional.of("seq must run 1, 2, 3...; row " + rows + " has seq " + seq));
        }
        String prevHash = r.getString(7).trim();
        String stored = r.getString(8).trim();
        if (!prevHash.equals(prev)) {
          return new Verification(
              rows,
              Optional.of(
                  String.format(
                      Locale.ROOT,
                      "seq %d: prev_hash %s does not equal the previous row's hash %s",
                      seq,
                      prevHash,
                      prev)));
        }
        String expected =
            hash(
                prevHash,
                seq,
                r.getString(2),
                r.getString(3).trim(),
                r.getString(4).trim(),
                r.getInt(5),
                r.getLong(6));
        if (!expected.equals(stored)) {
          return new Verification(
              rows,
              Optional.of(
                  String.format(
                      Locale.ROOT,
                      "seq %d: stored hash %s does not recompute (expected %s)",
                      seq,
                      stored,
                      expected)));
        }
        prev = stored;
      }
    }
    return new Verification(rows, Optional.empty());
  }
}
