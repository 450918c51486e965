package dev.ceiling.cli.command;

import com.google.common.base.Splitter;
import com.google.common.net.InetAddresses;
import dev.ceiling.core.model.Checks;
import dev.ceiling.generator.SourceAddresses;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.List;

/**
 * The value of {@code --source-addresses}: a comma list whose items are IP address literals or
 * inclusive IPv4 ranges {@code A-B} (A <= B), e.g. {@code 127.0.0.2-127.0.0.65} or {@code
 * 127.0.0.2,127.0.0.3,::1}. Literals only (Guava's {@link InetAddresses#forString}): a name would
 * be resolved, and the loopback rule is about where load goes, not what a name says today. Whether
 * the addresses are acceptable (loopback, each once, no more than the connections) is the
 * generator's rule ({@link SourceAddresses#problems}), not repeated here.
 */
final class SourceAddressSpec {
  static final String OPTION = "--source-addresses";

  private SourceAddressSpec() {}

  /**
   * The addresses {@code spec} names, in order; adds one problem per bad item (each naming the
   * option) and returns what parsed.
   */
  static List<InetAddress> parse(String spec, Checks problems) {
    List<InetAddress> out = new ArrayList<>();
    for (String item : Splitter.on(',').trimResults().split(spec)) {
      if (item.isEmpty()) {
        problems.add(
            OPTION
                + ": expected IP addresses or A-B ranges separated by commas, got an empty item"
                + " in '"
                + spec
                + "'");
        continue;
      }
      List<String> ends = Splitter.on('-').limit(2).trimResults().splitToList(item);
      if (ends.size() == 1) {
        InetAddress a = literal(item, problems);
        if (a != null) {
          out.add(a);
        }
      } else {
        range(item, ends.get(0), ends.get(1), out, problems);
      }
    }
    return out;
  }

  /** {@link #parse(String, Checks)} for a caller that collects its problems in a list. */
  static List<InetAddress> parse(String spec, List<String> problems) {
    Checks found = new Checks();
    List<InetAddress> out = parse(spec, found);
    problems.addAll(found.problems());
    return out;
  }

  /** Adds A..B to {@code out}, or one problem. */
  private static void range(
      String item, String from, String to, List<InetAddress> out, Checks problems) {
    InetAddress a = literal(from, problems);
    InetAddress b = literal(to, problems);
    if (a == null || b == null) {
      return;
    }
    if (!(a instanceof Inet4Address) || !(b instanceof Inet4Address)) {
      problems.add(OPTION + ": a range must join two IPv4 addresses, got '" + item + "'");
      return;
    }
    long first = Integer.toUnsignedLong(InetAddresses.coerceToInteger(a));
    long last = Integer.toUnsignedLong(InetAddresses.coerceToInteger(b));
    if (last < first) {
      problems.add(OPTION + ": range '" + item + "' must not decrease (A-B with A <= B)");
      return;
    }
    // Refused before listing it: 127.0.0.0-127.255.255.255 would be 16 million addresses.
    if (last - first + 1 > SourceAddresses.MAX) {
      problems.add(
          OPTION
              + ": range '"
              + item
              + "' holds "
              + (last - first + 1)
              + " addresses, more than "
              + SourceAddresses.MAX);
      return;
    }
    for (long v = first; v <= last; v++) {
      out.add(InetAddresses.fromInteger((int) v));
    }
  }

  private static InetAddress literal(String s, Checks problems) {
    try {
      return InetAddresses.forString(s);
    } catch (IllegalArgumentException e) {
      problems.add(OPTION + ": '" + s + "' is not an IP address literal");
      return null;
    }
  }
}
