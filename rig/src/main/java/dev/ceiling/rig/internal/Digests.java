package dev.ceiling.rig.internal;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.stream.Stream;

/** SHA-256 of files, directory trees and byte streams, as lowercase hex. */
public final class Digests {
  private Digests() {}

  public static MessageDigest sha256() {
    try {
      return MessageDigest.getInstance("SHA-256");
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JDK has SHA-256", e);
    }
  }

  public static String hex(MessageDigest md) {
    return HexFormat.of().formatHex(md.digest());
  }

  public static String sha256(byte[] bytes) {
    MessageDigest md = sha256();
    md.update(bytes);
    return hex(md);
  }

  /**
   * A file's SHA-256, or for a directory a SHA-256 over every regular file's relative path and
   * content in path order (so a classes directory has an identity like a jar does).
   */
  public static String sha256(Path path) throws IOException {
    MessageDigest md = sha256();
    if (Files.isDirectory(path)) {
      List<Path> files;
      try (Stream<Path> s = Files.walk(path)) {
        files = s.filter(Files::isRegularFile).sorted().toList();
      }
      for (Path f : files) {
        // Path and length prefix the content so moving bytes between files changes the digest.
        String rel = path.relativize(f).toString().replace('\\', '/');
        md.update((rel + "\0" + Files.size(f) + "\0").getBytes(StandardCharsets.UTF_8));
        update(md, f);
      }
    } else {
      update(md, path);
    }
    return hex(md);
  }

  private static void update(MessageDigest md, Path file) throws IOException {
    byte[] buf = new byte[64 * 1024];
    try (InputStream in = Files.newInputStream(file)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        md.update(buf, 0, n);
      }
    }
  }
}
