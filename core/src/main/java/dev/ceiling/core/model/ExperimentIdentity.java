package dev.ceiling.core.model;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Everything two half-runs must share to be combined into one experiment. Two dirty trees at the
 * same commit are different builds, so the relay's identity includes a digest of its uncommitted
 * diff and of its binary.
 *
 * @param profile the rig profile's name
 * @param treatmentArm the arm under test (e.g. "on": the audit path enabled)
 * @param controlArm the arm it is compared with (e.g. "off")
 * @param ratesPerS the offered-rate grid, events/s, each > 0, ascending and distinct
 * @param durationS each cell's requested duration, seconds, > 0
 * @param repeats repeats per rate, >= 1
 * @param order cell order policy: "ascending" or "shuffled"
 * @param orderSeed the shuffle seed when order is "shuffled", else null
 * @param communityHosts the target communities' hosts, in order
 * @param limiterSettings the admission-limiter settings the rig applied (name to value)
 * @param queueCapacity the audit queue's capacity, or null when the relay has none
 * @param generatorIdentity Ceiling's version and jar digest
 * @param relaySourceRevision the relay's source revision, or null if unknown
 * @param relaySourceDiffDigest SHA-256 of the relay's uncommitted diff, or null if unknown
 * @param relayBinaryDigest SHA-256 of the relay's binary or jar, or null if unknown
 * @param relayParameters the profile parameters the relay ran with (defaults and overrides, e.g. an
 *     injected exchange delay, a queue capacity): two halves run with different values measured
 *     different systems
 * @param measurement warm-up, grace period and send-lag bound every cell was measured with, or null
 *     in a document written before they were recorded (schema version 1); two halves must agree
 * @param equivalenceMargin the equivalence margin delta for the treatment-versus-control TOST, a
 *     fraction of accepted/offered in (0, 1), declared before the first cell; null when the run
 *     asks no equivalence question (and in a document written before the margin existed)
 */
public record ExperimentIdentity(
    String profile,
    String treatmentArm,
    String controlArm,
    List<Double> ratesPerS,
    double durationS,
    int repeats,
    String order,
    Long orderSeed,
    List<String> communityHosts,
    Map<String, String> limiterSettings,
    Integer queueCapacity,
    String generatorIdentity,
    String relaySourceRevision,
    String relaySourceDiffDigest,
    String relayBinaryDigest,
    Map<String, String> relayParameters,
    MeasurementSettings measurement,
    Double equivalenceMargin) {

  /** An identity that asks no equivalence question. */
  public ExperimentIdentity(
      String profile,
      String treatmentArm,
      String controlArm,
      List<Double> ratesPerS,
      double durationS,
      int repeats,
      String order,
      Long orderSeed,
      List<String> communityHosts,
      Map<String, String> limiterSettings,
      Integer queueCapacity,
      String generatorIdentity,
      String relaySourceRevision,
      String relaySourceDiffDigest,
      String relayBinaryDigest,
      Map<String, String> relayParameters,
      MeasurementSettings measurement) {
    this(
        profile,
        treatmentArm,
        controlArm,
        ratesPerS,
        durationS,
        repeats,
        order,
        orderSeed,
        communityHosts,
        limiterSettings,
        queueCapacity,
        generatorIdentity,
        relaySourceRevision,
        relaySourceDiffDigest,
        relayBinaryDigest,
        relayParameters,
        measurement,
        null);
  }

  /** An identity whose measurement settings were not recorded (tests, hand-built halves). */
  public ExperimentIdentity(
      String profile,
      String treatmentArm,
      String controlArm,
      List<Double> ratesPerS,
      double durationS,
      int repeats,
      String order,
      Long orderSeed,
      List<String> communityHosts,
      Map<String, String> limiterSettings,
      Integer queueCapacity,
      String generatorIdentity,
      String relaySourceRevision,
      String relaySourceDiffDigest,
      String relayBinaryDigest,
      Map<String, String> relayParameters) {
    this(
        profile,
        treatmentArm,
        controlArm,
        ratesPerS,
        durationS,
        repeats,
        order,
        orderSeed,
        communityHosts,
        limiterSettings,
        queueCapacity,
        generatorIdentity,
        relaySourceRevision,
        relaySourceDiffDigest,
        relayBinaryDigest,
        relayParameters,
        null);
  }

  /** This identity with {@code m} as its measurement settings. */
  public ExperimentIdentity withMeasurement(MeasurementSettings m) {
    return with(m, equivalenceMargin);
  }

  /**
   * This identity with {@code delta} as its equivalence margin (null: no equivalence question).
   *
   * @throws IllegalArgumentException when delta is not in (0, 1)
   */
  public ExperimentIdentity withEquivalenceMargin(Double delta) {
    return with(measurement, delta);
  }

  /**
   * This identity with {@code n} repeats per rate: how a design that measures two kinds of cell on
   * one relay (the split design) shows both kinds to the A/B's cell rules as repeats of one arm.
   */
  public ExperimentIdentity withRepeats(int n) {
    return with(n, measurement, equivalenceMargin);
  }

  /**
   * This identity with {@code rates} as its grid, strictly ascending: how a delay sweep, whose
   * cells each get the offer its plan's rule gives, shows them to the A/B's cell rules.
   */
  public ExperimentIdentity withRates(List<Double> rates) {
    return with(rates, repeats, measurement, equivalenceMargin);
  }

  private ExperimentIdentity with(MeasurementSettings m, Double delta) {
    return with(repeats, m, delta);
  }

  private ExperimentIdentity with(int n, MeasurementSettings m, Double delta) {
    return with(ratesPerS, n, m, delta);
  }

  private ExperimentIdentity with(List<Double> rates, int n, MeasurementSettings m, Double delta) {
    return new ExperimentIdentity(
        profile,
        treatmentArm,
        controlArm,
        rates,
        durationS,
        n,
        order,
        orderSeed,
        communityHosts,
        limiterSettings,
        queueCapacity,
        generatorIdentity,
        relaySourceRevision,
        relaySourceDiffDigest,
        relayBinaryDigest,
        relayParameters,
        m,
        delta);
  }

  public ExperimentIdentity {
    Checks checks = new Checks();
    checks.notBlank("profile", profile);
    checks.notBlank("treatment_arm", treatmentArm);
    checks.notBlank("control_arm", controlArm);
    if (treatmentArm != null && treatmentArm.equals(controlArm)) {
      checks.add("treatment_arm and control_arm must differ, got both '" + treatmentArm + "'");
    }
    ratesPerS = List.copyOf(Objects.requireNonNull(ratesPerS, "rates_per_s must not be null"));
    if (ratesPerS.isEmpty()) {
      checks.add("rates_per_s must not be empty, got []");
    }
    boolean ascending = true;
    for (int i = 0; i < ratesPerS.size(); i++) {
      checks.positiveFinite("rates_per_s[" + i + "]", ratesPerS.get(i));
      ascending &= i == 0 || ratesPerS.get(i) > ratesPerS.get(i - 1);
    }
    checks.require(ascending, "rates_per_s must be strictly ascending, got " + ratesPerS);
    checks.positiveFinite("duration_s", durationS);
    if (repeats < 1) {
      checks.add("repeats must be >= 1, got " + repeats);
    }
    if (!"ascending".equals(order) && !"shuffled".equals(order)) {
      checks.add(
          "order must be 'ascending' or 'shuffled', got "
              + (order == null ? "null" : "'" + order + "'"));
    }
    if ("shuffled".equals(order) != (orderSeed != null)) {
      checks.add(
          "order_seed must be set exactly when order is 'shuffled', got order="
              + order
              + " order_seed="
              + orderSeed);
    }
    communityHosts = List.copyOf(Objects.requireNonNull(communityHosts, "community_hosts"));
    if (communityHosts.isEmpty()) {
      checks.add("community_hosts must not be empty, got []");
    }
    limiterSettings =
        java.util.Collections.unmodifiableMap(
            new TreeMap<>(Objects.requireNonNull(limiterSettings, "limiter_settings")));
    if (queueCapacity != null && queueCapacity < 1) {
      checks.add("queue_capacity must be >= 1 or null, got " + queueCapacity);
    }
    checks.notBlank("generator_identity", generatorIdentity);
    relayParameters =
        java.util.Collections.unmodifiableMap(
            new TreeMap<>(Objects.requireNonNull(relayParameters, "relay_parameters")));
    if (equivalenceMargin != null && !(equivalenceMargin > 0 && equivalenceMargin < 1)) {
      checks.add(
          "equivalence_margin must be in (0, 1) (a fraction of accepted/offered) or null, got "
              + equivalenceMargin);
    }
    checks.orThrow();
  }
}
