package dev.ceiling.experiment;

import dev.ceiling.core.json.Json;
import dev.ceiling.core.json.ReportFormatException;
import dev.ceiling.core.model.Cell;
import dev.ceiling.core.model.ExperimentIdentity;
import java.io.BufferedWriter;
import java.io.Closeable;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;

/**
 * An append-only JSON-lines record of finished cells, flushed and forced to disk after every cell,
 * so an interrupted sweep loses at most the cell that was running.
 *
 * <p>Not thread-safe: one sweep writes one journal.
 */
public final class Journal implements Closeable {
  private final Path file;
  private final FileChannel channel;
  private final BufferedWriter out;

  private Journal(Path file, FileChannel channel, BufferedWriter out) {
    this.file = file;
    this.channel = channel;
    this.out = out;
  }

  /**
   * What a journal holds: its identity, arm and the finished cells in the order written.
   *
   * @param completeBytes the length of the journal up to and including its last newline
   * @param totalBytes the journal's length when read; more than {@code completeBytes} when its last
   *     line is torn (was being written when the sweep died)
   * @param tornTail that torn line decoded as UTF-8, for a message; empty when the journal ends
   *     cleanly
   */
  public record Contents(
      ExperimentIdentity identity,
      String arm,
      List<Cell> cells,
      long completeBytes,
      long totalBytes,
      String tornTail) {
    public Contents {
      cells = List.copyOf(cells);
    }

    /** One line saying what a resume drops, or empty when the journal ends cleanly. */
    public java.util.Optional<String> tornMessage(Path file) {
      if (totalBytes == completeBytes) {
        return java.util.Optional.empty();
      }
      String preview = tornTail.length() > 80 ? tornTail.substring(0, 80) + "..." : tornTail;
      return java.util.Optional.of(
          file
              + ": dropped a torn last line ("
              + (totalBytes - completeBytes)
              + " bytes, a cell being written when the sweep stopped: "
              + preview
              + "); truncated the journal to its "
              + completeBytes
              + " complete bytes before appending; that cell is measured again");
    }
  }

  /** Starts a new journal, refusing to overwrite one that exists (that is what resume is for). */
  public static Journal create(Path file, ExperimentIdentity identity, String arm)
      throws IOException {
    if (Files.exists(file) && Files.size(file) > 0) {
      throw new IOException(
          file
              + ": journal exists; continue it ('ceiling sweep --resume "
              + file
              + "', or 'ceiling experiment --resume DIR' for an experiment's directory), or choose"
              + " another path");
    }
    Journal j = open(file);
    j.append(JournalLine.header(identity, arm));
    return j;
  }

  /**
   * Opens an existing journal for appending after {@link #read} has validated it. A torn last line
   * is cut off first (and the cut forced to disk), so the next cell starts on a line of its own:
   * appending after it would glue two records into one unreadable line.
   */
  public static Journal reopen(Path file, Contents validated) throws IOException {
    try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
      if (ch.size() != validated.totalBytes()) {
        throw new IOException(
            file + ": journal changed since it was read; refusing to append to it");
      }
      if (ch.size() > validated.completeBytes()) {
        ch.truncate(validated.completeBytes());
        ch.force(true);
      }
    }
    return open(file);
  }

  private static Journal open(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    FileChannel ch =
        Files.exists(file)
            ? FileChannel.open(file, StandardOpenOption.WRITE, StandardOpenOption.APPEND)
            : FileChannel.open(
                file,
                java.util.Set.of(
                    StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE,
                    StandardOpenOption.APPEND),
                java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rw-------")));
    BufferedWriter w =
        new BufferedWriter(
            new java.io.OutputStreamWriter(
                java.nio.channels.Channels.newOutputStream(ch), StandardCharsets.UTF_8));
    return new Journal(file, ch, w);
  }

  /** Appends one finished cell and forces it to disk before returning. */
  public void append(Cell cell) throws IOException {
    append(JournalLine.cell(cell));
  }

  private void append(JournalLine line) throws IOException {
    out.write(Json.writeLine(line));
    out.write('\n');
    out.flush();
    channel.force(false);
  }

  /** What a failed append means for the user: the file, the cause and how to go on. */
  static String appendFailure(Path journal, IOException e) {
    return "cannot append to the journal "
        + journal
        + ": "
        + e.getMessage()
        + "; it keeps every cell measured before this one, and the same sweep with --resume "
        + journal
        + " continues from there once the file can be written";
  }

  public Path file() {
    return file;
  }

  @Override
  public void close() throws IOException {
    out.close();
  }

  /**
   * Reads and validates a journal. A final line without its newline is the cell that was being
   * written when the sweep died: it is dropped (and will be measured again). Any other bad line is
   * an error naming the file and the line, because silently skipping it would lose a measurement.
   */
  public static Contents read(Path file) throws ReportFormatException {
    byte[] bytes;
    try {
      bytes = Files.readAllBytes(file);
    } catch (IOException e) {
      throw new ReportFormatException(file.toString(), "$", "cannot read journal: " + e, e);
    }
    int lastNewline = bytes.length - 1;
    while (lastNewline >= 0 && bytes[lastNewline] != '\n') {
      lastNewline--;
    }
    long completeBytes = lastNewline + 1L;
    // Decoded apart: a line torn inside a multi-byte character must not change how the complete
    // part decodes, and its byte length is what gets truncated.
    String text = new String(bytes, 0, (int) completeBytes, StandardCharsets.UTF_8);
    String torn =
        new String(
            bytes, (int) completeBytes, bytes.length - (int) completeBytes, StandardCharsets.UTF_8);
    String[] lines = text.split("\n", -1);
    // The last split element is "" after a trailing newline, otherwise a torn line: skip it.
    int complete = lines.length - 1;
    ExperimentIdentity identity = null;
    String arm = null;
    List<Cell> cells = new ArrayList<>();
    for (int i = 0; i < complete; i++) {
      String source = file + " line " + (i + 1);
      JournalLine line = Json.read(lines[i], source, JournalLine.class);
      if (i == 0) {
        if (!"header".equals(line.type())) {
          throw new ReportFormatException(source, "$.type", "first line must be the header", null);
        }
        identity = line.identity();
        arm = line.arm();
      } else if (!"cell".equals(line.type())) {
        throw new ReportFormatException(source, "$.type", "only the first line is a header", null);
      } else {
        if (!line.cell().arm().equals(arm)) {
          throw new ReportFormatException(
              source,
              "$.cell.arm",
              "cell arm '" + line.cell().arm() + "' differs from the journal's arm '" + arm + "'",
              null);
        }
        cells.add(line.cell());
      }
    }
    if (identity == null) {
      throw new ReportFormatException(file.toString(), "$", "journal has no header line", null);
    }
    return new Contents(identity, arm, cells, completeBytes, bytes.length, torn);
  }
}
