package dev.ceiling.nostr;

import java.security.SecureRandom;

/**
 * A secp256k1 key pair for signing Nostr events: a 32-byte secret and its 32-byte x-only public key
 * (BIP-340).
 *
 * <p>The secret is only handed out by {@link #secretKeyHex()}, for writing to owner-only files;
 * {@link #toString()} shows the public key only, so a key pair can be logged safely.
 *
 * <p>Immutable and thread-safe.
 */
public final class Keys {
  private final byte[] secret;
  private final byte[] publicKey;
  private final String publicKeyHex;

  private Keys(byte[] secret) {
    this.secret = secret.clone();
    this.publicKey = Schnorr.xOnlyPublicKey(this.secret);
    this.publicKeyHex = Hex.encode(publicKey);
  }

  /** A fresh key pair from a {@link SecureRandom}. */
  public static Keys generate() {
    SecureRandom random = new SecureRandom();
    byte[] candidate = new byte[32];
    // A uniformly random 256-bit value is >= n with probability ~2^-128; loop rather than reason.
    do {
      random.nextBytes(candidate);
    } while (!Schnorr.isValidSecretKey(candidate));
    return new Keys(candidate);
  }

  /**
   * The key pair of a 64-character lowercase hex secret.
   *
   * @throws NostrException if the hex is malformed or the secret is 0 or >= the curve order n; the
   *     message never contains the secret
   */
  public static Keys fromSecretHex(String hex) throws NostrException {
    if (hex == null || hex.length() != 64) {
      throw new NostrException(
          "secret key must be 64 lowercase hex characters, got "
              + (hex == null ? "null" : hex.length() + " characters"));
    }
    byte[] secret;
    try {
      secret = Hex.decode(hex);
    } catch (NostrException e) {
      // Hex's message quotes the offending character, which is part of the secret; do not repeat
      // it.
      throw new NostrException("secret key must be 64 lowercase hex characters", null);
    }
    if (!Schnorr.isValidSecretKey(secret)) {
      throw new NostrException("secret key must be in [1, n-1] (n = secp256k1 order)");
    }
    return new Keys(secret);
  }

  /** The 32-byte x-only public key as 64 lowercase hex characters (a NIP-01 {@code pubkey}). */
  public String publicKeyHex() {
    return publicKeyHex;
  }

  /** The 32-byte x-only public key; a fresh copy. */
  public byte[] publicKey() {
    return publicKey.clone();
  }

  /** The secret as 64 lowercase hex characters. For owner-only key files; never log it. */
  public String secretKeyHex() {
    return Hex.encode(secret);
  }

  /** The secret without a copy, for signing inside this package. */
  byte[] secretKeyUnsafe() {
    return secret;
  }

  /** Shows the public key only. */
  @Override
  public String toString() {
    return "Keys[publicKey=" + publicKeyHex + "]";
  }
}
