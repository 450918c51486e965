package dev.ceiling.rig.internal;

import com.google.common.hash.Funnels;
import com.google.common.hash.Hasher;
import com.google.common.hash.Hashing;
import com.google.common.io.MoreFiles;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.CodeSource;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** Identities of builds: git revision and uncommitted-diff digest, code-source digests. */
public final class Provenance {
  private Provenance() {}

  /**
   * A source checkout's state.
   *
   * @param revision {@code git rev-parse HEAD}
   * @param diffDigest SHA-256 over {@code git diff HEAD --binary} and every untracked, non-ignored
   *     file's path and content; a clean tree gives the SHA-256 of nothing
   */
  public record SourceState(String revision, String diffDigest) {}

  /**
   * Reads a checkout's revision and diff digest. Untracked files count: a new source file that is
   * not yet added changes the build as much as an edit does.
   *
   * @throws IOException naming the directory and git's complaint
   */
  public static SourceState source(Path dir) throws IOException {
    String rev = new String(git(dir, "rev-parse", "HEAD"), StandardCharsets.UTF_8).trim();
    Hasher md = Hashing.sha256().newHasher();
    md.putBytes(git(dir, "diff", "HEAD", "--binary", "--no-color", "--no-ext-diff"));
    byte[] untracked = git(dir, "ls-files", "--others", "--exclude-standard", "-z");
    Path top =
        Path.of(
            new String(git(dir, "rev-parse", "--show-toplevel"), StandardCharsets.UTF_8).trim());
    Path prefixBase = dir.toRealPath();
    for (String rel : new String(untracked, StandardCharsets.UTF_8).split("\0", -1)) {
      if (rel.isEmpty()) {
        continue;
      }
      Path f = prefixBase.resolve(rel);
      if (!Files.isRegularFile(f)) {
        f = top.resolve(rel);
      }
      md.putString("untracked\0" + rel + "\0", StandardCharsets.UTF_8);
      if (Files.isRegularFile(f)) {
        md.putBytes(Files.readAllBytes(f));
      }
    }
    return new SourceState(rev, md.hash().toString());
  }

  private static byte[] git(Path dir, String... args) throws IOException {
    List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(false).start();
    ByteArrayOutputStream err = new ByteArrayOutputStream();
    Thread drain =
        new Thread(
            () -> {
              try (InputStream e = p.getErrorStream()) {
                e.transferTo(err);
              } catch (IOException ex) {
                throw new UncheckedIOException(ex);
              }
            },
            "git-stderr");
    drain.setDaemon(true);
    drain.start();
    byte[] out;
    try (InputStream in = p.getInputStream()) {
      out = in.readAllBytes();
    }
    try {
      if (!p.waitFor(30, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        throw new IOException("git " + String.join(" ", args) + " in " + dir + " timed out");
      }
      drain.join(1000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      p.destroyForcibly();
      throw new IOException("interrupted running git in " + dir, e);
    }
    if (p.exitValue() != 0) {
      throw new IOException(
          "git "
              + String.join(" ", args)
              + " in "
              + dir
              + " exited "
              + p.exitValue()
              + ": "
              + err.toString(StandardCharsets.UTF_8).trim());
    }
    return out;
  }

  /** The jar or classes directory a class was loaded from, or null if the JVM will not say. */
  public static Path codeSource(Class<?> type) {
    CodeSource cs = type.getProtectionDomain().getCodeSource();
    if (cs == null || cs.getLocation() == null) {
      return null;
    }
    try {
      return Path.of(cs.getLocation().toURI());
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /** SHA-256 of a class's jar or classes directory, or null if it cannot be read. */
  public static String codeSourceDigest(Class<?> type) {
    Path p = codeSource(type);
    if (p == null) {
      return null;
    }
    try {
      return digest(p);
    } catch (IOException e) {
      return null;
    }
  }

  /**
   * A file's SHA-256 as lowercase hex, or for a directory a SHA-256 over every regular file's
   * relative path, length and content in path order (so a classes directory has an identity like a
   * jar does).
   */
  public static String digest(Path path) throws IOException {
    if (!Files.isDirectory(path)) {
      if (Files.exists(path) && !Files.isRegularFile(path)) {
        // Opening a FIFO to hash it would block until a writer comes, i.e. forever.
        throw new IOException("not a regular file or directory (a FIFO, socket or device)");
      }
      return MoreFiles.asByteSource(path).hash(Hashing.sha256()).toString();
    }
    List<Path> files;
    try (Stream<Path> s = Files.walk(path)) {
      files = s.filter(Files::isRegularFile).sorted().toList();
    }
    Hasher h = Hashing.sha256().newHasher();
    try (OutputStream out = Funnels.asOutputStream(h)) {
      for (Path f : files) {
        // Path and length prefix the content so moving bytes between files changes the digest.
        String rel = path.relativize(f).toString().replace('\\', '/');
        h.putString(rel + "\0" + Files.size(f) + "\0", StandardCharsets.UTF_8);
        MoreFiles.asByteSource(f).copyTo(out);
      }
    }
    return h.hash().toString();
  }

  /** Ceiling's version, from the build-filtered resource; "unknown" if it is missing. */
  public static String ceilingVersion() {
    try (InputStream in =
        Provenance.class.getResourceAsStream("/dev/ceiling/rig/version.properties")) {
      if (in == null) {
        return "unknown";
      }
      Properties p = new Properties();
      p.load(in);
      String v = p.getProperty("version", "unknown");
      return v.startsWith("${") ? "unknown" : v;
    } catch (IOException e) {
      return "unknown";
    }
  }
}
