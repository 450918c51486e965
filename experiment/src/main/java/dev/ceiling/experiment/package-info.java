/**
 * Ceiling's experiments: where a relay's accepted-event throughput stops tracking the offered rate,
 * measured by one of four designs.
 *
 * <p>The entry points, one builder per design, each validating every option at once before anything
 * starts:
 *
 * <ul>
 *   <li>{@link dev.ceiling.experiment.Experiment#builder()}: the A/B, two arms of one relay swept
 *       over the same rates ({@link dev.ceiling.experiment.ExperimentResult}).
 *   <li>{@link dev.ceiling.experiment.DelaySweep#builder()}: the delay sweep ({@code ceiling
 *       sensitivity}), round trips per event over one link, or per link with {@code runLinks()}
 *       ({@link dev.ceiling.experiment.DelaySweepResult}, {@link
 *       dev.ceiling.experiment.LinkSweepsResult}); {@link dev.ceiling.experiment.DelaySweepFile}
 *       reads a stored sweep back.
 *   <li>{@link dev.ceiling.experiment.SplitRound#builder()}: the lock round.
 *   <li>{@link dev.ceiling.experiment.IdentitiesRound#builder()}: the defaults round.
 * </ul>
 *
 * <p>Below them, {@link dev.ceiling.experiment.SweepRunner} measures one arm's sweep on a running
 * relay, and {@link dev.ceiling.experiment.ShutdownHook} is the Ctrl-C handling the CLI shares.
 * {@link dev.ceiling.experiment.Predictions} names the relay_info keys a relay reports its own
 * ceilings under. Everything package-private is the rounds' machinery: {@code Rounds} is what the
 * rounds share (the output file, the relay up and down, the one round hook on the one {@code
 * StopSignal}, the cell loop), {@code RoundEnd} how a loop ended.
 */
package dev.ceiling.experiment;
