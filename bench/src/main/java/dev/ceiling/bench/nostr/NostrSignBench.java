package dev.ceiling.bench.nostr;

import dev.ceiling.nostr.EventSigner;
import dev.ceiling.nostr.EventVerifier;
import dev.ceiling.nostr.Hex;
import dev.ceiling.nostr.Keys;
import dev.ceiling.nostr.NostrEvent;
import dev.ceiling.nostr.NostrException;
import dev.ceiling.nostr.Schnorr;
import java.math.BigInteger;
import java.security.SecureRandom;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.bouncycastle.crypto.params.ECPrivateKeyParameters;
import org.bouncycastle.crypto.params.ECPublicKeyParameters;
import org.bouncycastle.crypto.params.ParametersWithRandom;
import org.bouncycastle.crypto.signers.BIP340Signer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Sign/s and verify/s of one thread (one core) for the two BIP-340 candidates: libsecp256k1 through
 * JNI (secp256k1-kmp, what core uses) and BouncyCastle's pure-Java {@code BIP340Signer}.
 *
 * <p>{@code signEvent} and {@code verifyEvent} are what the generator and the relay do per event:
 * canonical serialization + SHA-256 id + Schnorr (+ hex and the record for signing). {@code
 * signRaw}/{@code verifyRaw} isolate the curve arithmetic on a 32-byte message.
 *
 * <p>Run: see docs/PERFORMANCE.md ({@code java -cp <bench classpath> org.openjdk.jmh.Main
 * NostrSignBench}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 2, time = 2)
@Measurement(iterations = 3, time = 2)
@Fork(1)
@Threads(1)
@State(Scope.Thread)
public class NostrSignBench {

  @Param({"secp256k1-jni", "bouncycastle"})
  public String impl;

  private static final List<List<String>> TAGS = List.of(List.of("h", "bench"));
  // A typical load-test note: 256 bytes of content, one community tag.
  private static final String CONTENT = "x".repeat(256);

  private Keys keys;
  private byte[] secret;
  private byte[] xOnly;
  private BIP340Signer bcSigner;
  private BIP340Signer bcVerifier;
  private ECPrivateKeyParameters bcPrivate;
  private ECPublicKeyParameters bcPublic;
  private final SecureRandom random = new SecureRandom();
  private long counter;
  private byte[] msg32;
  private final byte[] signMsg = new byte[32];
  private byte[] sig;
  private NostrEvent signed;

  @Setup(Level.Trial)
  public void setUp() throws NostrException {
    keys = Keys.generate();
    secret = Hex.decode(keys.secretKeyHex());
    xOnly = keys.publicKey();
    bcSigner = new BIP340Signer();
    bcVerifier = new BIP340Signer();
    bcPrivate = new ECPrivateKeyParameters(new BigInteger(1, secret), BIP340Signer.getDomain());
    bcPublic = BIP340Signer.decodePublicKey(xOnly);
    msg32 = new byte[32];
    random.nextBytes(msg32);
    sig = rawSign(msg32);
    signed = signEvent(1_700_000_000L);
    if (!Schnorr.verify(msg32, xOnly, sig) || !EventVerifier.verify(signed) || !verifyEvent()) {
      throw new IllegalStateException(impl + " produced a signature the other side rejects");
    }
  }

  private byte[] rawSign(byte[] msg) {
    if (impl.equals("secp256k1-jni")) {
      byte[] aux = new byte[32];
      random.nextBytes(aux);
      return Schnorr.sign(msg, secret, aux);
    }
    bcSigner.init(true, new ParametersWithRandom(bcPrivate, random));
    bcSigner.update(msg, 0, msg.length);
    return bcSigner.generateSignature();
  }

  private boolean rawVerify(byte[] msg, byte[] signature) {
    if (impl.equals("secp256k1-jni")) {
      return Schnorr.verify(msg, xOnly, signature);
    }
    bcVerifier.init(false, bcPublic);
    bcVerifier.update(msg, 0, msg.length);
    return bcVerifier.verifySignature(signature);
  }

  private NostrEvent signEvent(long createdAt) throws NostrException {
    if (impl.equals("secp256k1-jni")) {
      return EventSigner.sign(keys, createdAt, 1, TAGS, CONTENT);
    }
    String id = NostrEvent.computeId(keys.publicKeyHex(), createdAt, 1, TAGS, CONTENT);
    byte[] s = rawSign(Hex.decode(id));
    return new NostrEvent(id, keys.publicKeyHex(), createdAt, 1, TAGS, CONTENT, Hex.encode(s));
  }

  private boolean verifyEvent() throws NostrException {
    if (impl.equals("secp256k1-jni")) {
      return EventVerifier.verify(signed);
    }
    return signed.idMatches() && rawVerify(Hex.decode(signed.id()), Hex.decode(signed.sig()));
  }

  /** Generator: id + signature of a fresh event (created_at varies so every id differs). */
  @Benchmark
  public NostrEvent signEvent() throws NostrException {
    return signEvent(1_700_000_000L + counter++);
  }

  /** Relay: id recomputation + signature check of one event. */
  @Benchmark
  public boolean verifyEventBench() throws NostrException {
    return verifyEvent();
  }

  @Benchmark
  public byte[] signRaw() {
    // Its own buffer: msg32 and sig must stay a valid pair for verifyRaw.
    signMsg[0] = (byte) counter++;
    return rawSign(signMsg);
  }

  @Benchmark
  public boolean verifyRaw() {
    return rawVerify(msg32, sig);
  }
}
