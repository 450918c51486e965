package dev.ceiling.core.nostr;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class EventSignerTest {
  @Test
  void signedEventVerifiesAndRoundTripsThroughJson() throws NostrException {
    Keys keys = Keys.generate();
    NostrEvent e =
        EventSigner.sign(keys, 1_700_000_000L, 1, List.of(List.of("h", "chan")), "hello\n\"x\"");
    assertThat(e.idMatches()).isTrue();
    assertThat(EventVerifier.verify(e)).isTrue();
    NostrEvent back = NostrEvent.fromJson(e.toJson());
    assertThat(back).isEqualTo(e);
    assertThat(EventVerifier.verify(back)).isTrue();
  }

  @Test
  void tamperedContentFailsVerification() {
    Keys keys = Keys.generate();
    NostrEvent e = EventSigner.sign(keys, 1L, 1, List.of(), "a");
    NostrEvent forged =
        new NostrEvent(e.id(), e.pubkey(), e.createdAt(), e.kind(), e.tags(), "b", e.sig());
    assertThat(EventVerifier.verify(forged)).isFalse();
  }
}
