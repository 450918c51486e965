package dev.ceiling.nostr;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class KeysAndHexTest {
  private static final String N_HEX =
      "fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141";

  @Test
  void hexRoundTripsAndIsLowercase() throws NostrException {
    byte[] all = new byte[256];
    for (int i = 0; i < 256; i++) {
      all[i] = (byte) i;
    }
    String hex = Hex.encode(all);
    assertThat(hex).startsWith("000102").endsWith("fdfeff").hasSize(512);
    assertThat(Hex.decode(hex)).isEqualTo(all);
    assertThat(Hex.encode(new byte[0])).isEmpty();
  }

  @Test
  void hexRejectsWhatNostrDoesNotAllow() {
    assertThatThrownBy(() -> Hex.decode("abc"))
        .isInstanceOf(NostrException.class)
        .hasMessage("hex must have an even length, got 3");
    assertThatThrownBy(() -> Hex.decode("00AB"))
        .hasMessage("hex must be lowercase [0-9a-f], got 'A' at index 2");
    assertThatThrownBy(() -> Hex.decode("0g"))
        .hasMessage("hex must be lowercase [0-9a-f], got 'g' at index 1");
    assertThatThrownBy(() -> Hex.decode(null)).hasMessage("hex must not be null");
  }

  @Test
  void keysFromSecretMatchBip340Vector1() throws NostrException {
    Keys k = Keys.fromSecretHex("b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef");
    assertThat(k.publicKeyHex())
        .isEqualTo("dff1d77f2a671c5f36183726db2341be58feae1da2deced843240f7b502ba659");
    assertThat(k.secretKeyHex())
        .isEqualTo("b7e151628aed2a6abf7158809cf4f3c762e7160f38b4da56a784d9045190cfef");
  }

  @Test
  void toStringNeverRevealsTheSecret() throws NostrException {
    Keys k = Keys.generate();
    assertThat(k.toString())
        .isEqualTo("Keys[publicKey=" + k.publicKeyHex() + "]")
        .doesNotContain(k.secretKeyHex());
  }

  @Test
  void badSecretsAreRejectedWithoutEchoingThem() {
    assertThatThrownBy(() -> Keys.fromSecretHex("00".repeat(32)))
        .isInstanceOf(NostrException.class)
        .hasMessage("secret key must be in [1, n-1] (n = secp256k1 order)");
    assertThatThrownBy(() -> Keys.fromSecretHex(N_HEX))
        .hasMessage("secret key must be in [1, n-1] (n = secp256k1 order)");
    assertThatThrownBy(() -> Keys.fromSecretHex("ab"))
        .hasMessage("secret key must be 64 lowercase hex characters, got 2 characters");
    String upper = "B7E151628AED2A6ABF7158809CF4F3C762E7160F38B4DA56A784D9045190CFEF";
    assertThatThrownBy(() -> Keys.fromSecretHex(upper))
        .hasMessage("secret key must be 64 lowercase hex characters");
  }

  @Test
  void generatedKeysAreDistinctAndSign() {
    Set<String> seen = new HashSet<>();
    for (int i = 0; i < 20; i++) {
      Keys k = Keys.generate();
      assertThat(seen.add(k.publicKeyHex())).isTrue();
      assertThat(EventVerifier.verify(EventSigner.sign(k, 1, 1, List.of(), "x"))).isTrue();
    }
  }

  @Test
  void twoSignaturesOfOneEventDifferBecauseAuxRandIsFresh() {
    Keys k = Keys.generate();
    NostrEvent a = EventSigner.sign(k, 1, 1, List.of(), "same");
    NostrEvent b = EventSigner.sign(k, 1, 1, List.of(), "same");
    assertThat(a.id()).isEqualTo(b.id());
    assertThat(a.sig()).isNotEqualTo(b.sig());
  }

  @Test
  void verifyNeverThrowsOnMalformedInput() {
    byte[] m = new byte[32];
    assertThat(Schnorr.verify(null, m, new byte[64])).isFalse();
    assertThat(Schnorr.verify(m, new byte[31], new byte[64])).isFalse();
    assertThat(Schnorr.verify(m, m, new byte[63])).isFalse();
    // x = p + 1 is not a field element; the native binding throws for it internally.
    byte[] notOnCurve = new byte[32];
    java.util.Arrays.fill(notOnCurve, (byte) 0xff);
    assertThat(Schnorr.verify(m, notOnCurve, new byte[64])).isFalse();
    assertThat(Schnorr.verify(new byte[5], notOnCurve, new byte[64])).isFalse();
    assertThat(EventVerifier.verify(null)).isFalse();
  }

  @Test
  void signingAndVerifyingOnManyThreadsAtOnceIsCorrect() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 4; t++) {
        int thread = t;
        results.add(
            pool.submit(
                () -> {
                  Keys k = Keys.generate();
                  int ok = 0;
                  for (int i = 0; i < 500; i++) {
                    NostrEvent e =
                        EventSigner.sign(k, i, 1, List.of(List.of("t", "" + thread)), "n" + i);
                    if (EventVerifier.verify(e) && e.pubkey().equals(k.publicKeyHex())) {
                      ok++;
                    }
                  }
                  return ok;
                }));
      }
      for (Future<Integer> f : results) {
        assertThat(f.get()).isEqualTo(500);
      }
    } finally {
      pool.shutdownNow();
    }
  }
}
