package dev.ceiling.junit;

import com.google.common.hash.Hashing;
import dev.ceiling.core.model.RigDescriptor;
import dev.ceiling.core.model.Target;
import dev.ceiling.core.net.LoopbackPorts;
import dev.ceiling.experiment.DelaySweep;
import dev.ceiling.experiment.DelaySweepOptions;
import dev.ceiling.rig.DownResult;
import dev.ceiling.rig.RelayProfile;
import dev.ceiling.rig.Rig;
import dev.ceiling.rig.RigException;
import dev.ceiling.rig.RigHandle;
import dev.ceiling.rig.UpOptions;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.Function;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolutionException;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link WithRelay}: one relay per test class.
 *
 * <ul>
 *   <li><b>Condition.</b> When the profile's relay executable is not installed (an absolute path
 *       that does not exist, or a bare name not on {@code PATH}), the class is disabled with that
 *       reason rather than failed. A profile that cannot be read is a configuration error and is
 *       not disabled: it fails in {@code beforeAll}.
 *   <li><b>Before all.</b> {@link Rig#up(UpOptions)} with the spec's arm, reset and overrides;
 *       every port the overrides do not set gets a free loopback port; the state directory is
 *       {@code <stateRoot>/<SimpleClassName>-<8 hex of the class's unique id>}. {@code @Nested}
 *       classes reuse the enclosing class's relay.
 *   <li><b>Parameters.</b> Test methods, constructors and lifecycle methods may declare {@link
 *       RigDescriptor}, {@code List<Target>} (the descriptor's targets), {@link RigHandle} and a
 *       {@link DelaySweepOptions.Builder}: a delay sweep of this relay ({@link
 *       DelaySweep#builder()} with the profile and the running relay {@link
 *       DelaySweepOptions.Builder#attach attached}), a new builder per parameter, to which the test
 *       adds its link, grid, declared count and output directory before it runs. The sweep leaves
 *       the relay running; this extension stops it as always.
 *   <li><b>After all</b>, also when tests or {@code beforeAll} failed: the relay is stopped (the
 *       rig verifies it is still ours first). The running relay is also kept in the class's {@link
 *       ExtensionContext.Store} as an {@link AutoCloseable}, so JUnit closes it even if an earlier
 *       {@code afterAll} callback throws. A relay that survives the stop fails the class.
 * </ul>
 *
 * <p>Per class, not per method: a relay is a process whose start takes seconds, so methods of one
 * class share it; put tests that need a fresh database in their own class. One instance may serve
 * many classes, also in parallel: all per-class state lives in the extension context's store.
 */
public final class RelayRig
    implements ExecutionCondition, BeforeAllCallback, AfterAllCallback, ParameterResolver {

  private static final ExtensionContext.Namespace NAMESPACE =
      ExtensionContext.Namespace.create(RelayRig.class);
  private static final String RELAY = "relay";

  private final RelaySpec fixedSpec;
  private final Function<RelayProfile, Optional<String>> binaryCheck;

  /** The extension as {@link WithRelay} registers it: the spec is read from the annotation. */
  public RelayRig() {
    this(null, RelayBinaryCheck::missing);
  }

  RelayRig(RelaySpec spec, Function<RelayProfile, Optional<String>> binaryCheck) {
    this.fixedSpec = spec;
    this.binaryCheck = Objects.requireNonNull(binaryCheck, "binaryCheck");
  }

  /**
   * An extension for a {@code @RegisterExtension static} field, for specs computed at run time
   * (e.g. a profile file found by code). Do not combine with {@link WithRelay} on the same class.
   */
  public static RelayRig of(RelaySpec spec) {
    return new RelayRig(
        Objects.requireNonNull(spec, "spec must not be null"), RelayBinaryCheck::missing);
  }

  @Override
  public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
    if (context.getTestMethod().isPresent()) {
      return ConditionEvaluationResult.enabled("decided for the class");
    }
    Optional<RelaySpec> spec = spec(context);
    if (spec.isEmpty()) {
      return ConditionEvaluationResult.enabled("no relay requested");
    }
    RelayProfile profile;
    try {
      profile = RelayProfile.resolve(spec.get().profile());
    } catch (RigException e) {
      // A broken profile is the user's mistake, not a missing install: let beforeAll fail loudly.
      return ConditionEvaluationResult.enabled("profile unreadable; beforeAll reports it");
    }
    Optional<String> missing = binaryCheck.apply(profile);
    return missing.isPresent()
        ? ConditionEvaluationResult.disabled(missing.get())
        : ConditionEvaluationResult.enabled("relay executable found");
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    Optional<RelaySpec> found = spec(context);
    if (found.isEmpty() || running(context) != null) {
      return;
    }
    RelaySpec spec = found.get();
    RelayProfile profile = RelayProfile.resolve(spec.profile());
    Map<String, String> overrides = new TreeMap<>(spec.params());
    if (spec.freePorts()) {
      List<String> names = new ArrayList<>(new TreeMap<>(profile.ports()).keySet());
      names.removeIf(overrides::containsKey);
      List<Integer> ports = LoopbackPorts.pick(names.size());
      for (int i = 0; i < names.size(); i++) {
        overrides.put(names.get(i), Integer.toString(ports.get(i)));
      }
    }
    Path stateDir = spec.stateRoot().resolve(stateDirName(context));
    UpOptions options;
    try {
      options =
          UpOptions.of(profile, spec.arm() == null ? profile.treatmentArm() : spec.arm(), stateDir)
              .withReset(spec.reset())
              .withOverrides(overrides)
              // Ports were just probed free: a short wait suffices, and a collision surfaces fast.
              .withTimeouts(
                  spec.readyTimeout(), Duration.ofSeconds(5), UpOptions.DEFAULT_STOP_TIMEOUT);
    } catch (IllegalArgumentException e) {
      throw new ExtensionConfigurationException(
          context.getRequiredTestClass().getName() + ": " + e.getMessage(), e);
    }
    RigHandle handle = Rig.up(options);
    context.getStore(NAMESPACE).put(RELAY, new RunningRelay(handle, profile));
  }

  @Override
  public void afterAll(ExtensionContext context) {
    Object own = context.getStore(NAMESPACE).remove(RELAY);
    if (own instanceof RunningRelay r) {
      r.close();
    }
  }

  @Override
  public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
    Class<?> type = parameter.getParameter().getType();
    if (type == RigDescriptor.class
        || type == RigHandle.class
        || type == DelaySweepOptions.Builder.class) {
      return spec(context).isPresent();
    }
    if (type == List.class) {
      Type t = parameter.getParameter().getParameterizedType();
      return t instanceof ParameterizedType pt
          && pt.getActualTypeArguments()[0] == Target.class
          && spec(context).isPresent();
    }
    return false;
  }

  @Override
  public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
    RunningRelay r = running(context);
    if (r == null) {
      throw new ParameterResolutionException(
          "no relay is running for "
              + context.getDisplayName()
              + ": it is brought up before all tests of the class; a static @BeforeAll of an"
              + " enclosing class runs too early");
    }
    Class<?> type = parameter.getParameter().getType();
    if (type == RigHandle.class) {
      return r.handle;
    }
    if (type == RigDescriptor.class) {
      return r.handle.descriptor();
    }
    if (type == DelaySweepOptions.Builder.class) {
      return DelaySweep.builder().profile(r.profile).attach(r.handle);
    }
    return r.handle.descriptor().targets();
  }

  private Optional<RelaySpec> spec(ExtensionContext context) {
    if (fixedSpec != null) {
      return Optional.of(fixedSpec);
    }
    for (Class<?> c = context.getTestClass().orElse(null); c != null; c = c.getEnclosingClass()) {
      Optional<WithRelay> a = AnnotationSupport.findAnnotation(c, WithRelay.class);
      if (a.isPresent()) {
        try {
          return Optional.of(RelaySpec.from(a.get()));
        } catch (IllegalArgumentException e) {
          throw new ExtensionConfigurationException(
              "@WithRelay on " + c.getName() + ": " + e.getMessage(), e);
        }
      }
    }
    return Optional.empty();
  }

  private static RunningRelay running(ExtensionContext context) {
    return context.getStore(NAMESPACE).get(RELAY, RunningRelay.class);
  }

  /** Readable and unique per class: parallel classes never share a state directory. */
  static String stateDirName(ExtensionContext context) {
    String simple = context.getRequiredTestClass().getSimpleName();
    String digest =
        Hashing.sha256().hashString(context.getUniqueId(), StandardCharsets.UTF_8).toString();
    return simple + "-" + digest.substring(0, 8);
  }

  /** The class's relay; closing stops it once, and fails when it is still alive afterwards. */
  private static final class RunningRelay implements AutoCloseable {
    private final RigHandle handle;
    private final RelayProfile profile;

    RunningRelay(RigHandle handle, RelayProfile profile) {
      this.handle = handle;
      this.profile = profile;
    }

    @Override
    public void close() {
      DownResult down = handle.stop();
      if (!down.clean()) {
        throw new IllegalStateException(
            "the relay of " + handle.stateDir() + " is still running: " + down.message());
      }
    }
  }
}
