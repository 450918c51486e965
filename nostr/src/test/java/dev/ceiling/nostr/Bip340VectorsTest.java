package dev.ceiling.nostr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * The official BIP-340 test vectors (resource bip340/test-vectors.csv, see the README beside it),
 * run through the production path ({@link Schnorr}) and through the pure-Java reference ({@link
 * Bip340}). Signing vectors must reproduce the exact signature from the given aux_rand; every
 * vector must verify to its listed result. Each mutant below is a plausible implementation bug that
 * the same check must catch.
 */
class Bip340VectorsTest {

  // A read-only carrier for one CSV row; it is never compared or hashed, so array identity
  // semantics do not matter.
  @SuppressWarnings("ArrayRecordComponent")
  record Vector(
      int index,
      byte[] secretKey,
      byte[] publicKey,
      byte[] auxRand,
      byte[] message,
      byte[] signature,
      boolean result,
      String comment) {}

  interface Signer {
    byte[] sign(byte[] msg, byte[] secKey, byte[] aux);
  }

  interface Verifier {
    boolean verify(byte[] msg, byte[] pub, byte[] sig);
  }

  static List<Vector> vectors() throws IOException, NostrException {
    String csv;
    try (InputStream in = Bip340VectorsTest.class.getResourceAsStream("/bip340/test-vectors.csv")) {
      assertThat(in).as("resource bip340/test-vectors.csv").isNotNull();
      csv = new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
    List<Vector> out = new ArrayList<>();
    List<String> lines = csv.lines().toList();
    assertThat(lines.get(0))
        .isEqualTo(
            "index,secret key,public key,aux_rand,message,signature,verification result,comment");
    for (String line : lines.subList(1, lines.size())) {
      String[] f = line.split(",", 8);
      out.add(
          new Vector(
              Integer.parseInt(f[0]),
              f[1].isEmpty() ? null : hex(f[1]),
              hex(f[2]),
              f[3].isEmpty() ? null : hex(f[3]),
              hex(f[4]),
              hex(f[5]),
              switch (f[6]) {
                case "TRUE" -> true;
                case "FALSE" -> false;
                default -> throw new IllegalArgumentException("bad result " + f[6]);
              },
              f[7]));
    }
    return out;
  }

  private static byte[] hex(String upper) throws NostrException {
    return Hex.decode(upper.toLowerCase(Locale.ROOT));
  }

  /** The vectors a signer/verifier pair gets wrong, as "vector N: what". Empty means all pass. */
  static List<String> failures(Signer signer, Verifier verifier) throws Exception {
    return failures(vectors(), signer, verifier);
  }

  static List<String> failures(List<Vector> vectors, Signer signer, Verifier verifier) {
    List<String> failed = new ArrayList<>();
    for (Vector v : vectors) {
      if (v.secretKey() != null) {
        byte[] sig;
        try {
          sig = signer.sign(v.message(), v.secretKey(), v.auxRand());
        } catch (RuntimeException e) {
          failed.add("vector " + v.index() + ": sign threw " + e);
          continue;
        }
        if (!Arrays.equals(sig, v.signature())) {
          failed.add("vector " + v.index() + ": signature " + Hex.encode(sig));
        }
      }
      boolean ok = verifier.verify(v.message(), v.publicKey(), v.signature());
      if (ok != v.result()) {
        failed.add("vector " + v.index() + ": verify gave " + ok + " (" + v.comment() + ")");
      }
    }
    return failed;
  }

  @Test
  void theFileHoldsAllNineteenVectors() throws Exception {
    List<Vector> all = vectors();
    assertThat(all).hasSize(19);
    assertThat(all.stream().map(Vector::index)).containsExactlyElementsOf(range(0, 19));
    assertThat(all.stream().filter(v -> v.secretKey() != null).count()).isEqualTo(8);
  }

  @Test
  void productionPathPassesEveryNostrLengthVector() throws Exception {
    List<Vector> nostr = vectors().stream().filter(v -> v.message().length == 32).toList();
    assertThat(nostr).hasSize(15);
    assertThat(failures(nostr, Schnorr::sign, Schnorr::verify)).isEmpty();
  }

  @Test
  void productionPathRefusesMessageLengthsNostrNeverSigns() throws Exception {
    // Vectors 15-18 sign 0-, 1-, 17- and 100-byte messages: BIP-340 allows them, Nostr never
    // signs them, and the JNI binding takes none of them. Refused, never signed some other way.
    List<Vector> other = vectors().stream().filter(v -> v.message().length != 32).toList();
    assertThat(other).extracting(Vector::index).containsExactly(15, 16, 17, 18);
    for (Vector v : other) {
      assertThatThrownBy(() -> Schnorr.sign(v.message(), v.secretKey(), v.auxRand()))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("message must be 32 bytes");
      assertThat(Schnorr.verify(v.message(), v.publicKey(), v.signature())).isFalse();
    }
  }

  @Test
  void pureJavaReferencePassesEveryVector() throws Exception {
    assertThat(failures(Bip340::sign, Bip340::verify)).isEmpty();
  }

  @Test
  void secretKeysDeriveTheListedPublicKeys() throws Exception {
    for (Vector v : vectors()) {
      if (v.secretKey() != null) {
        assertThat(Keys.fromSecretHex(Hex.encode(v.secretKey())).publicKeyHex())
            .as("vector %d", v.index())
            .isEqualTo(Hex.encode(v.publicKey()));
      }
    }
  }

  // --- mutants: each must be caught by the same check -------------------------------------

  @Test
  void mutantThatIgnoresAuxRandIsCaught() throws Exception {
    Signer zeroAux = (m, sk, aux) -> Bip340.sign(m, sk, new byte[32]);
    assertThat(failures(zeroAux, Bip340::verify))
        .anyMatch(f -> f.startsWith("vector 1: signature"))
        .anyMatch(f -> f.startsWith("vector 2: signature"))
        .anyMatch(f -> f.startsWith("vector 3: signature"));
  }

  @Test
  void mutantThatPrehashesOtherMessageLengthsIsCaught() throws Exception {
    // A common shortcut: SHA-256 any message that is not 32 bytes, then sign the digest.
    Signer prehash = (m, sk, aux) -> Bip340.sign(m.length == 32 ? m : sha256(m), sk, aux);
    assertThat(failures(prehash, Bip340::verify))
        .anyMatch(f -> f.startsWith("vector 15: signature"))
        .anyMatch(f -> f.startsWith("vector 18: signature"));
  }

  @Test
  void mutantVerifierThatOnlyChecksRangesIsCaught() throws Exception {
    Verifier rangesOnly = (m, pk, sig) -> sig[0] != (byte) 0xFF && pk[31] != (byte) 0x30;
    assertThat(failures(Bip340::sign, rangesOnly))
        .anyMatch(f -> f.startsWith("vector 5: verify gave true (public key not on the curve)"))
        .anyMatch(f -> f.startsWith("vector 8: verify gave true (negated s value)"));
  }

  private static byte[] sha256(byte[] m) {
    try {
      return MessageDigest.getInstance("SHA-256").digest(m);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static List<Integer> range(int from, int to) {
    List<Integer> out = new ArrayList<>();
    for (int i = from; i < to; i++) {
      out.add(i);
    }
    return out;
  }
}
