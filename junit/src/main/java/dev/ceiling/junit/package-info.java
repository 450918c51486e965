/**
 * Ceiling inside a relay developer's JUnit 5 test suite.
 *
 * <ul>
 *   <li>{@link dev.ceiling.junit.WithRelay} on a test class (or {@link
 *       dev.ceiling.junit.RelayRig#of(RelaySpec)} in a {@code @RegisterExtension} field) brings a
 *       relay up through a rig profile once per test class, injects its {@link
 *       dev.ceiling.core.model.RigDescriptor}, its {@code List<Target>} and its {@link
 *       dev.ceiling.rig.RigHandle} into test methods, and takes it down after the class, also when
 *       a test fails. A relay executable that is not installed disables the class with a reason
 *       instead of failing it.
 *   <li>{@link dev.ceiling.junit.CeilingAssertions} states what a user wants of a finished
 *       experiment: the arm limits ingest; a change did not lower the ceiling by more than a stated
 *       margin (a one-sided non-inferiority test).
 * </ul>
 *
 * <p>See docs/EMBEDDING.md. Needs JUnit Jupiter 5.13 or newer.
 */
package dev.ceiling.junit;
