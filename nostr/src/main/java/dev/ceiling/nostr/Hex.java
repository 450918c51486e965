package dev.ceiling.nostr;

/**
 * Lowercase hex as Nostr writes it. Decoding accepts lowercase only, because NIP-01 ids, pubkeys
 * and signatures are lowercase and a relay must not accept two spellings of one id.
 *
 * <p>Thread-safe: stateless.
 */
public final class Hex {
  private static final char[] DIGITS = "0123456789abcdef".toCharArray();

  private Hex() {}

  /** Lowercase hex of {@code bytes}, two characters per byte. */
  public static String encode(byte[] bytes) {
    char[] out = new char[bytes.length * 2];
    for (int i = 0; i < bytes.length; i++) {
      int b = bytes[i] & 0xff;
      out[2 * i] = DIGITS[b >>> 4];
      out[2 * i + 1] = DIGITS[b & 0x0f];
    }
    return new String(out);
  }

  /**
   * Bytes of a lowercase hex string.
   *
   * @throws NostrException if {@code hex} is null, has odd length or a character outside [0-9a-f]
   */
  public static byte[] decode(String hex) throws NostrException {
    if (hex == null) {
      throw new NostrException("hex must not be null");
    }
    if ((hex.length() & 1) != 0) {
      throw new NostrException("hex must have an even length, got " + hex.length());
    }
    byte[] out = new byte[hex.length() / 2];
    for (int i = 0; i < out.length; i++) {
      int hi = digit(hex, 2 * i);
      int lo = digit(hex, 2 * i + 1);
      out[i] = (byte) ((hi << 4) | lo);
    }
    return out;
  }

  /** True if {@code s} is exactly {@code chars} lowercase hex characters. */
  static boolean isLowerHex(String s, int chars) {
    if (s == null || s.length() != chars) {
      return false;
    }
    for (int i = 0; i < chars; i++) {
      char c = s.charAt(i);
      if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
        return false;
      }
    }
    return true;
  }

  private static int digit(String hex, int at) throws NostrException {
    char c = hex.charAt(at);
    if (c >= '0' && c <= '9') {
      return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
      return c - 'a' + 10;
    }
    throw new NostrException(
        "hex must be lowercase [0-9a-f], got '" + printable(c) + "' at index " + at);
  }

  private static String printable(char c) {
    return c >= 0x20 && c < 0x7f ? String.valueOf(c) : String.format("\\u%04x", (int) c);
  }
}
