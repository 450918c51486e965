package dev.ceiling.nostr;

import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;

/**
 * BIP-340 transcribed from the BIP's reference code with {@link BigInteger} affine arithmetic. It
 * is slow (milliseconds per signature) and not constant-time, and exists for two reasons: messages
 * that are not 32 bytes (which the JNI binding refuses), and as an independent oracle the tests
 * compare the native path against.
 *
 * <p>Thread-safe: stateless.
 */
final class Bip340 {
  static final BigInteger P =
      new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEFFFFFC2F", 16);
  static final BigInteger N =
      new BigInteger("FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFFEBAAEDCE6AF48A03BBFD25E8CD0364141", 16);
  private static final BigInteger[] G = {
    new BigInteger("79BE667EF9DCBBAC55A06295CE870B07029BFCDB2DCE28D959F2815B16F81798", 16),
    new BigInteger("483ADA7726A3C4655DA4FBFC0E1108A8FD17B448A68554199C47D08FFB10D4B8", 16)
  };
  private static final BigInteger SEVEN = BigInteger.valueOf(7);

  private Bip340() {}

  static byte[] sign(byte[] msg, byte[] secKey32, byte[] auxRand32) {
    BigInteger d0 = new BigInteger(1, secKey32);
    if (d0.signum() == 0 || d0.compareTo(N) >= 0) {
      throw new IllegalArgumentException("secret key must be in [1, n-1]");
    }
    BigInteger[] pk = mul(G, d0);
    BigInteger d = hasEvenY(pk) ? d0 : N.subtract(d0);
    byte[] t = xor(bytes32(d), taggedHash("BIP0340/aux", auxRand32));
    byte[] pkBytes = bytes32(pk[0]);
    BigInteger k0 = new BigInteger(1, taggedHash("BIP0340/nonce", t, pkBytes, msg)).mod(N);
    if (k0.signum() == 0) {
      throw new IllegalStateException("nonce is zero; BIP-340 says fail (probability ~2^-256)");
    }
    BigInteger[] r = mul(G, k0);
    BigInteger k = hasEvenY(r) ? k0 : N.subtract(k0);
    byte[] rBytes = bytes32(r[0]);
    BigInteger e = new BigInteger(1, taggedHash("BIP0340/challenge", rBytes, pkBytes, msg)).mod(N);
    byte[] sig = new byte[64];
    System.arraycopy(rBytes, 0, sig, 0, 32);
    System.arraycopy(bytes32(k.add(e.multiply(d)).mod(N)), 0, sig, 32, 32);
    if (!verify(msg, pkBytes, sig)) {
      throw new IllegalStateException("created signature does not verify");
    }
    return sig;
  }

  static boolean verify(byte[] msg, byte[] xOnlyPub32, byte[] sig64) {
    if (msg == null || xOnlyPub32 == null || sig64 == null) {
      return false;
    }
    if (xOnlyPub32.length != 32 || sig64.length != 64) {
      return false;
    }
    BigInteger[] pk = liftX(new BigInteger(1, xOnlyPub32));
    if (pk == null) {
      return false;
    }
    byte[] rBytes = Arrays.copyOfRange(sig64, 0, 32);
    BigInteger r = new BigInteger(1, rBytes);
    BigInteger s = new BigInteger(1, Arrays.copyOfRange(sig64, 32, 64));
    if (r.compareTo(P) >= 0 || s.compareTo(N) >= 0) {
      return false;
    }
    BigInteger e =
        new BigInteger(1, taggedHash("BIP0340/challenge", rBytes, xOnlyPub32, msg)).mod(N);
    BigInteger[] big = add(mul(G, s), mul(pk, N.subtract(e)));
    return big != null && hasEvenY(big) && big[0].equals(r);
  }

  static byte[] taggedHash(String tag, byte[]... parts) {
    MessageDigest sha = sha256();
    byte[] tagHash = sha.digest(tag.getBytes(StandardCharsets.UTF_8));
    sha.update(tagHash);
    sha.update(tagHash);
    for (byte[] part : parts) {
      sha.update(part);
    }
    return sha.digest();
  }

  static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every Java platform must provide SHA-256", e);
    }
  }

  private static BigInteger[] liftX(BigInteger x) {
    if (x.compareTo(P) >= 0) {
      return null;
    }
    BigInteger c = x.modPow(BigInteger.valueOf(3), P).add(SEVEN).mod(P);
    BigInteger y = c.modPow(P.add(BigInteger.ONE).shiftRight(2), P);
    if (!y.modPow(BigInteger.TWO, P).equals(c)) {
      return null;
    }
    return new BigInteger[] {x, y.testBit(0) ? P.subtract(y) : y};
  }

  private static boolean hasEvenY(BigInteger[] point) {
    return !point[1].testBit(0);
  }

  /**
   * {@code scalar * point} in Jacobian coordinates (one inversion at the end instead of one per
   * step), returned affine; {@code null} is the point at infinity.
   */
  private static BigInteger[] mul(BigInteger[] point, BigInteger scalar) {
    BigInteger[] result = null;
    BigInteger[] addend = {point[0], point[1], BigInteger.ONE};
    for (int i = 0; i < scalar.bitLength(); i++) {
      if (scalar.testBit(i)) {
        result = jacobianAdd(result, addend);
      }
      addend = jacobianDouble(addend);
    }
    return toAffine(result);
  }

  /** Affine point addition; {@code null} is the point at infinity. */
  private static BigInteger[] add(BigInteger[] a, BigInteger[] b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    return toAffine(
        jacobianAdd(
            new BigInteger[] {a[0], a[1], BigInteger.ONE},
            new BigInteger[] {b[0], b[1], BigInteger.ONE}));
  }

  private static BigInteger[] toAffine(BigInteger[] j) {
    if (j == null) {
      return null;
    }
    BigInteger zInv = j[2].modInverse(P);
    BigInteger zInv2 = zInv.multiply(zInv).mod(P);
    return new BigInteger[] {
      j[0].multiply(zInv2).mod(P), j[1].multiply(zInv2).multiply(zInv).mod(P)
    };
  }

  private static BigInteger[] jacobianDouble(BigInteger[] a) {
    if (a == null || a[1].signum() == 0) {
      return null;
    }
    BigInteger y2 = a[1].multiply(a[1]).mod(P);
    BigInteger s = a[0].multiply(y2).shiftLeft(2).mod(P);
    BigInteger m = a[0].multiply(a[0]).multiply(BigInteger.valueOf(3)).mod(P);
    BigInteger x = m.multiply(m).subtract(s.shiftLeft(1)).mod(P);
    BigInteger y = m.multiply(s.subtract(x)).subtract(y2.multiply(y2).shiftLeft(3)).mod(P);
    BigInteger z = a[1].multiply(a[2]).shiftLeft(1).mod(P);
    return new BigInteger[] {x, y, z};
  }

  private static BigInteger[] jacobianAdd(BigInteger[] a, BigInteger[] b) {
    if (a == null) {
      return b;
    }
    if (b == null) {
      return a;
    }
    BigInteger z1z1 = a[2].multiply(a[2]).mod(P);
    BigInteger z2z2 = b[2].multiply(b[2]).mod(P);
    BigInteger u1 = a[0].multiply(z2z2).mod(P);
    BigInteger u2 = b[0].multiply(z1z1).mod(P);
    BigInteger s1 = a[1].multiply(z2z2).multiply(b[2]).mod(P);
    BigInteger s2 = b[1].multiply(z1z1).multiply(a[2]).mod(P);
    if (u1.equals(u2)) {
      return s1.equals(s2) ? jacobianDouble(a) : null;
    }
    BigInteger h = u2.subtract(u1).mod(P);
    BigInteger r = s2.subtract(s1).mod(P);
    BigInteger h2 = h.multiply(h).mod(P);
    BigInteger h3 = h2.multiply(h).mod(P);
    BigInteger u1h2 = u1.multiply(h2).mod(P);
    BigInteger x = r.multiply(r).subtract(h3).subtract(u1h2.shiftLeft(1)).mod(P);
    BigInteger y = r.multiply(u1h2.subtract(x)).subtract(s1.multiply(h3)).mod(P);
    BigInteger z = h.multiply(a[2]).multiply(b[2]).mod(P);
    return new BigInteger[] {x, y, z};
  }

  private static byte[] bytes32(BigInteger v) {
    byte[] raw = v.toByteArray();
    byte[] out = new byte[32];
    if (raw.length > 32) {
      System.arraycopy(raw, raw.length - 32, out, 0, 32);
    } else {
      System.arraycopy(raw, 0, out, 32 - raw.length, raw.length);
    }
    return out;
  }

  private static byte[] xor(byte[] a, byte[] b) {
    byte[] out = new byte[a.length];
    for (int i = 0; i < a.length; i++) {
      out[i] = (byte) (a[i] ^ b[i]);
    }
    return out;
  }
}
