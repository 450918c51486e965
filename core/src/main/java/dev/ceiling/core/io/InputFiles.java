package dev.ceiling.core.io;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * The one way Ceiling reads a whole input file into memory: only a regular file (a FIFO or a device
 * would block or never end), and only up to a stated size, checked before a byte is allocated, so a
 * wrong file is a clear error instead of a hang or an OutOfMemoryError.
 */
public final class InputFiles {
  /** Most bytes of a report, half-run or descriptor: far above any real one (a few MiB). */
  public static final long MAX_DOCUMENT_BYTES = 256L << 20;

  /** Most bytes of a relay profile: a page of JSON; more is the wrong file. */
  public static final long MAX_PROFILE_BYTES = 1L << 20;

  private InputFiles() {}

  /**
   * Why {@code file} may not be read whole with at most {@code maxBytes}, or null when it may.
   * Symbolic links are followed: a link to a regular file is fine.
   */
  public static String problem(Path file, long maxBytes) {
    BasicFileAttributes a;
    try {
      a = Files.readAttributes(file, BasicFileAttributes.class);
    } catch (NoSuchFileException e) {
      return "cannot read file: it does not exist";
    } catch (IOException e) {
      return "cannot read file: " + e;
    }
    if (!a.isRegularFile()) {
      return "not a regular file (" + kind(file, a) + ")";
    }
    if (a.size() > maxBytes) {
      return "the file is " + a.size() + " bytes; at most " + maxBytes + " are read";
    }
    return null;
  }

  /**
   * The file's text (UTF-8).
   *
   * @throws IOException whose message is {@link #problem}'s, or "cannot read file: " and the read's
   *     own failure
   */
  public static String readText(Path file, long maxBytes) throws IOException {
    String p = problem(file, maxBytes);
    if (p != null) {
      throw new IOException(p);
    }
    try {
      return Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new IOException("cannot read file: " + e, e);
    }
  }

  private static String kind(Path file, BasicFileAttributes a) {
    if (a.isDirectory()) {
      return "a directory";
    }
    if (Files.isSymbolicLink(file) && !Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
      return "a dangling link";
    }
    return a.isOther() ? "a FIFO, socket or device" : "not a file";
  }
}
