package dev.ceiling.rig.internal;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/** The last lines of a log file, read from the end so a huge log costs nothing. */
public final class LogTail {
  private static final int MAX_BYTES = 16 * 1024;

  private LogTail() {}

  /** Up to {@code lines} last lines; an unreadable log yields one line saying why. */
  public static List<String> lines(Path log, int lines) {
    try (RandomAccessFile f = new RandomAccessFile(log.toFile(), "r")) {
      long len = f.length();
      int n = (int) Math.min(len, MAX_BYTES);
      byte[] buf = new byte[n];
      f.seek(len - n);
      f.readFully(buf);
      String[] all = new String(buf, StandardCharsets.UTF_8).split("\r?\n", -1);
      int end = all.length;
      if (end > 0 && all[end - 1].isEmpty()) {
        end--;
      }
      return Arrays.asList(Arrays.copyOfRange(all, Math.max(0, end - lines), end));
    } catch (IOException e) {
      return List.of("(cannot read log " + log + ": " + e.getMessage() + ")");
    }
  }

  /** The tail as one indented block for an error message. */
  public static String block(Path log, int lines) {
    List<String> tail = lines(log, lines);
    if (tail.isEmpty()) {
      return "  (log " + log + " is empty)";
    }
    StringBuilder sb = new StringBuilder();
    for (String l : tail) {
      sb.append("  | ").append(l).append('\n');
    }
    return sb.toString().stripTrailing();
  }
}
