package dev.ceiling.junit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectClass;
import static org.junit.platform.testkit.engine.EventConditions.container;
import static org.junit.platform.testkit.engine.EventConditions.event;
import static org.junit.platform.testkit.engine.EventConditions.finishedWithFailure;
import static org.junit.platform.testkit.engine.EventConditions.skippedWithReason;
import static org.junit.platform.testkit.engine.TestExecutionResultConditions.message;

import dev.ceiling.core.model.RigDescriptor;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.testkit.engine.EngineExecutionResults;
import org.junit.platform.testkit.engine.EngineTestKit;

/**
 * Runs small test classes through JUnit's own engine (EngineTestKit) and checks what the extension
 * did around them: teardown after a failing test, skipping for a missing relay executable, and
 * failing (not skipping) for a configuration mistake. The inner classes are not run by surefire on
 * their own (it excludes nested classes).
 */
class RelayRigLifecycleIT {
  static final String MISSING = "src/test/resources/profiles/missing-binary.json";

  @WithRelay(params = {"exchange_delay_ms=0.5"})
  static class FailsAfterSeeingTheRelay {
    static final AtomicReference<RigDescriptor> SEEN = new AtomicReference<>();
    static final AtomicInteger HEALTH = new AtomicInteger();

    @Test
    void fails(RigDescriptor relay) throws Exception {
      SEEN.set(relay);
      HEALTH.set(Probes.healthStatus(relay.healthUrl()));
      throw new AssertionError("deliberate failure");
    }
  }

  @WithRelay(profile = MISSING)
  static class NeedsAMissingRelay {
    @Test
    void neverRuns() {}
  }

  /** Mutant: the same class with a condition that always finds the executable. */
  static class NeedsAMissingRelayMutantCondition {
    @RegisterExtension
    static final RelayRig RIG = new RelayRig(RelaySpec.of(MISSING), p -> Optional.empty());

    @Test
    void neverRuns() {}
  }

  @WithRelay(profile = "src/test/resources/profiles/no-such-profile.json")
  static class NamesAProfileThatDoesNotExist {
    @Test
    void neverRuns() {}
  }

  @WithRelay(params = {"no_such_parameter=1"})
  static class OverridesAnUnknownParameter {
    @Test
    void neverRuns() {}
  }

  static EngineExecutionResults run(Class<?> testClass) {
    return EngineTestKit.engine("junit-jupiter").selectors(selectClass(testClass)).execute();
  }

  @Test
  void theRelayIsUpDuringAFailingTestAndGoneAfterIt() {
    FailsAfterSeeingTheRelay.SEEN.set(null);
    EngineExecutionResults r = run(FailsAfterSeeingTheRelay.class);

    r.testEvents()
        .assertStatistics(s -> s.started(1).failed(1))
        .assertThatEvents()
        .haveExactly(1, finishedWithFailure(message("deliberate failure")));
    // The class itself finished cleanly: the stop found the relay and it exited.
    r.containerEvents().assertStatistics(s -> s.failed(0));
    RigDescriptor seen = FailsAfterSeeingTheRelay.SEEN.get();
    assertThat(seen).isNotNull();
    assertThat(FailsAfterSeeingTheRelay.HEALTH.get()).isEqualTo(200);
    Probes.assertGone(seen.relayPid());
  }

  @Test
  void mutantGoneCheckOnALiveProcessIsCaught() {
    assertThatThrownBy(() -> Probes.assertGone(ProcessHandle.current().pid()))
        .isInstanceOf(AssertionError.class);
  }

  /** The check both the real condition and its mutant go through. */
  static void assertSkippedForMissingBinary(Class<?> testClass) {
    EngineExecutionResults r = run(testClass);
    r.containerEvents()
        .assertThatEvents()
        .haveExactly(
            1,
            event(
                container(testClass),
                skippedWithReason(
                    reason ->
                        reason.startsWith(
                                "relay executable '/nonexistent/relay' of profile missing-binary")
                            && reason.endsWith(
                                "is not installed: "
                                    + Path.of("/nonexistent/relay")
                                    + " does not exist or is not executable"))));
    r.containerEvents().assertStatistics(s -> s.failed(0));
    r.testEvents().assertStatistics(s -> s.started(0));
  }

  @Test
  void aMissingRelayExecutableDisablesTheClassWithAReason() {
    assertSkippedForMissingBinary(NeedsAMissingRelay.class);
  }

  @Test
  void mutantConditionThatAlwaysEnablesIsCaught() {
    assertThatThrownBy(() -> assertSkippedForMissingBinary(NeedsAMissingRelayMutantCondition.class))
        .isInstanceOf(AssertionError.class);
  }

  @Test
  void aProfileThatCannotBeReadFailsTheClassInsteadOfSkippingIt() {
    EngineExecutionResults r = run(NamesAProfileThatDoesNotExist.class);
    r.containerEvents()
        .assertStatistics(s -> s.skipped(0).failed(1))
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                message(
                    m ->
                        m.startsWith(
                            "invalid relay profile src/test/resources/profiles/no-such-profile.json:"))));
  }

  @Test
  void anUnknownParameterFailsTheClassNamingIt() {
    EngineExecutionResults r = run(OverridesAnUnknownParameter.class);
    r.containerEvents()
        .assertStatistics(s -> s.failed(1))
        .assertThatEvents()
        .haveExactly(
            1,
            finishedWithFailure(
                message(
                    m ->
                        m.startsWith(OverridesAnUnknownParameter.class.getName() + ": ")
                            && m.contains("got no_such_parameter"))));
  }
}
