package dev.ceiling.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the annotated test class against a relay that the rig brings up before the class's first
 * test and takes down after its last, also when a test fails. Registers {@link RelayRig}.
 *
 * <pre>{@code
 * @WithRelay(profile = "reference", arm = "on", params = {"exchange_delay_ms=0.5"})
 * class MyRelayTest {
 *   @Test
 *   void answers(RigDescriptor relay, List<Target> targets) { ... }
 * }
 * }</pre>
 *
 * <p>Every attribute maps onto {@link RelaySpec}; the rules (valid values, what is rejected) are
 * documented there. {@code @Nested} classes share their enclosing class's relay.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(RelayRig.class)
public @interface WithRelay {
  /**
   * A built-in profile's name ({@code dev.ceiling.rig.RelayProfile#BUILT_IN}, e.g. {@code
   * "reference"}) or a profile file's path, relative to the working directory (the module's
   * directory under Maven).
   */
  String profile() default "reference";

  /** The arm to run; empty (the default) means the profile's treatment arm. */
  String arm() default "";

  /**
   * Overrides of the profile's parameters and ports, each {@code name=value} (e.g. {@code
   * "exchange_delay_ms=0.5"}); an unknown name fails the class.
   */
  String[] params() default {};

  /** Give the relay a fresh database before the class (default true). */
  boolean reset() default true;

  /** How long the relay may take to become ready, in seconds, >= 1 (default 60). */
  int readyTimeoutSeconds() default 60;

  /**
   * Give every port of the profile that {@link #params()} does not set a free loopback port
   * (default true), so test classes running in parallel (or a relay of yours on the profile's
   * default ports) do not collide.
   */
  boolean freePorts() default true;
}
