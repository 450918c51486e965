package dev.ceiling.cli.report;

import java.util.List;

/**
 * The flags every browser test starts Chromium with. Headless and sandbox-free (the tests may run
 * as root), and without its background networking, QUIC, component updates and sync: on a machine
 * with no route out, those connections are refused many at a time and slow every start.
 */
final class HeadlessChromium {
  private HeadlessChromium() {}

  /** The flags shared by the DOM dump, the screenshot and the WebDriver session. */
  static final List<String> FLAGS =
      List.of(
          "--headless",
          "--no-sandbox",
          "--disable-gpu",
          "--disable-background-networking",
          "--disable-quic",
          "--no-first-run",
          "--disable-component-update",
          "--disable-sync",
          "--hide-scrollbars");
}
