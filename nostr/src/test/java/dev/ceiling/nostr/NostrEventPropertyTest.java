package dev.ceiling.nostr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.ceiling.core.testing.Property;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/**
 * verify(sign(e)) holds, and flipping any single bit of id, sig, pubkey or content makes
 * verification fail. Each try flips one random bit in each of the four fields, so a verifier that
 * ignores any one of them fails on the first try (see the mutants).
 */
class NostrEventPropertyTest {
  private static final int TRIES = 150;
  // Ten key pairs reused across tries: key generation is not what is under test here.
  private static final List<Keys> KEYS = keys(10);

  private static List<Keys> keys(int n) {
    List<Keys> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(Keys.generate());
    }
    return out;
  }

  static NostrEvent randomSigned(SplittableRandom rnd) {
    List<List<String>> tags = new ArrayList<>();
    for (int i = rnd.nextInt(4); i > 0; i--) {
      tags.add(List.of(CanonicalTest.randomText(rnd, 3), CanonicalTest.randomText(rnd, 10)));
    }
    // At least one character so there is a content bit to flip.
    String content = "x" + CanonicalTest.randomText(rnd, 60);
    return EventSigner.sign(
        KEYS.get(rnd.nextInt(KEYS.size())),
        rnd.nextLong(0, 4_000_000_000L),
        rnd.nextInt(NostrEvent.MAX_KIND + 1),
        tags,
        content);
  }

  /** The property, parameterized by the verifier so a mutant can be run through it. */
  static void signVerifyAndBitFlips(Predicate<NostrEvent> verifier, int tries) {
    Property.forAll(
        "verify(sign(e)) and every single-bit flip is rejected",
        tries,
        rnd -> {
          NostrEvent e = randomSigned(rnd);
          assertThat(verifier.test(e)).as("verify(sign(e))").isTrue();
          for (String field : List.of("id", "sig", "pubkey", "content")) {
            NostrEvent flipped = flip(e, field, rnd);
            assertThat(flipped).isNotEqualTo(e);
            assertThat(verifier.test(flipped))
                .as("verify after flipping a bit of %s: %s", field, flipped.toJson())
                .isFalse();
          }
        });
  }

  /** {@code e} with one random bit of {@code field} flipped (hex fields: a bit of the bytes). */
  static NostrEvent flip(NostrEvent e, String field, SplittableRandom rnd) {
    return switch (field) {
      case "id" ->
          new NostrEvent(
              flipHex(e.id(), rnd),
              e.pubkey(),
              e.createdAt(),
              e.kind(),
              e.tags(),
              e.content(),
              e.sig());
      case "sig" ->
          new NostrEvent(
              e.id(),
              e.pubkey(),
              e.createdAt(),
              e.kind(),
              e.tags(),
              e.content(),
              flipHex(e.sig(), rnd));
      case "pubkey" ->
          new NostrEvent(
              e.id(),
              flipHex(e.pubkey(), rnd),
              e.createdAt(),
              e.kind(),
              e.tags(),
              e.content(),
              e.sig());
      case "content" -> {
        char[] chars = e.content().toCharArray();
        int at = rnd.nextInt(chars.length);
        chars[at] = (char) (chars[at] ^ (1 << rnd.nextInt(16)));
        yield new NostrEvent(
            e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), new String(chars), e.sig());
      }
      default -> throw new IllegalArgumentException(field);
    };
  }

  private static String flipHex(String hex, SplittableRandom rnd) {
    try {
      byte[] bytes = Hex.decode(hex);
      int bit = rnd.nextInt(bytes.length * 8);
      bytes[bit / 8] = (byte) (bytes[bit / 8] ^ (1 << (bit % 8)));
      return Hex.encode(bytes);
    } catch (NostrException impossible) {
      throw new IllegalStateException(impossible);
    }
  }

  @Test
  void signedEventsVerifyAndEverySingleBitFlipIsRejected() {
    signVerifyAndBitFlips(EventVerifier::verify, TRIES);
  }

  @Test
  void signedEventsRoundTripThroughJson() {
    Property.forAll(
        "fromJson(toJson(e)) == e and still verifies",
        TRIES,
        rnd -> {
          NostrEvent e = randomSigned(rnd);
          try {
            NostrEvent back = NostrEvent.fromJson(e.toJson());
            assertThat(back).isEqualTo(e);
            assertThat(EventVerifier.verify(back)).isTrue();
          } catch (NostrException ex) {
            throw new AssertionError(ex.getMessage(), ex);
          }
        });
  }

  @Test
  void mutantVerifierThatSkipsTheIdCheckIsCaught() {
    // Verifies the signature over the claimed id only: content changes go unnoticed.
    Predicate<NostrEvent> sigOnly =
        e -> {
          try {
            return Schnorr.verify(Hex.decode(e.id()), Hex.decode(e.pubkey()), Hex.decode(e.sig()));
          } catch (NostrException ex) {
            return false;
          }
        };
    assertThatThrownBy(() -> signVerifyAndBitFlips(sigOnly, TRIES))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("failed on try 0")
        .hasMessageContaining("flipping a bit of content");
  }

  @Test
  void mutantVerifierThatSkipsTheSignatureIsCaught() {
    assertThatThrownBy(() -> signVerifyAndBitFlips(NostrEvent::idMatches, TRIES))
        .isInstanceOf(AssertionError.class)
        .hasMessageContaining("failed on try 0")
        .hasMessageContaining("flipping a bit of sig");
  }

  @Test
  void nativeAndPureJavaSignersAgreeBitForBit() {
    // Differential check of the fast path against the BIP's reference algorithm, beyond the
    // eight signing vectors: same key, message and aux_rand must give the same signature.
    Property.forAll(
        "Schnorr.sign == Bip340.sign",
        // Few tries: the reference is BigInteger arithmetic, ~100 ms per signature before JIT.
        6,
        rnd -> {
          byte[] msg = bytes(rnd, 32);
          byte[] aux = bytes(rnd, 32);
          byte[] sk = bytes(rnd, 32);
          if (!Schnorr.isValidSecretKey(sk)) {
            return;
          }
          byte[] sig = Schnorr.sign(msg, sk, aux);
          assertThat(sig).isEqualTo(Bip340.sign(msg, sk, aux));
          byte[] pub = Schnorr.xOnlyPublicKey(sk);
          assertThat(Bip340.verify(msg, pub, sig)).isTrue();
          byte[] other = Arrays.copyOf(sig, 64);
          other[rnd.nextInt(64)] ^= (byte) (1 << rnd.nextInt(8));
          assertThat(Schnorr.verify(msg, pub, other)).isEqualTo(Bip340.verify(msg, pub, other));
        });
  }

  private static byte[] bytes(SplittableRandom rnd, int n) {
    byte[] b = new byte[n];
    rnd.nextBytes(b);
    return b;
  }
}
