package dev.ceiling.cli.report;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The dossier's wording where a round's own sentence would repeat what the paragraph says. */
class DossierTest {
  @Test
  void aSweepsAnswerLosesOnlyItsOwnLeadingLinkName() {
    assertThat(
            Dossier.withoutLink(
                "link 'db': 1.0 [0.8, 1.2] sequential round trips on the OK path per event", "db"))
        .isEqualTo("1.0 [0.8, 1.2] sequential round trips on the OK path per event");
    // Partners: another link's name, a name later in the sentence, and no answer stay as they are.
    assertThat(Dossier.withoutLink("link 'cache': 2.0 round trips", "db"))
        .isEqualTo("link 'cache': 2.0 round trips");
    assertThat(Dossier.withoutLink("the audit path makes 1.0 on link 'db' (wire 1.00)", "db"))
        .isEqualTo("the audit path makes 1.0 on link 'db' (wire 1.00)");
    assertThat(Dossier.withoutLink(null, "db")).isNull();
  }
}
