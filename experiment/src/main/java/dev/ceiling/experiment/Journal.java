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

  /** What a journal holds: its identity, arm and the finished cells in the order written. */
  public record Contents(ExperimentIdentity identity, String arm, List<Cell> cells) {
    public Contents {
      cells = List.copyOf(cells);
    }
  }

  /** Starts a new journal, refusing to overwrite one that exists (that is what resume is for). */
  public static Journal create(Path file, ExperimentIdentity identity, String arm)
      throws IOException {
    if (Files.exists(file) && Files.size(file) > 0) {
      throw new IOException(
          file + ": journal exists; pass it to --resume to continue it, or choose another path");
    }
    Journal j = open(file);
    j.append(JournalLine.header(identity, arm));
    return j;
  }

  /** Opens an existing journal for appending after {@link #read} has validated it. */
  public static Journal reopen(Path file) throws IOException {
    return open(file);
  }

  private static Journal open(Path file) throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    if (parent != null) {
      Files.createDirectories(parent);
    }
    FileChannel ch =
        FileChannel.open(
            file, StandardOpenOption.CREATE, StandardOpenOption.WRITE, StandardOpenOption.APPEND);
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
    String text;
    try {
      text = Files.readString(file, StandardCharsets.UTF_8);
    } catch (IOException e) {
      throw new ReportFormatException(file.toString(), "$", "cannot read journal: " + e, e);
    }
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
    return new Contents(identity, arm, cells);
  }
}
