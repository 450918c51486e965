/**
 * The generator's command line: the one picocli {@code generate} command that both {@code ceiling
 * generate} and the stand-alone {@link dev.ceiling.generator.GeneratorMain} run, and the parsing
 * rules every Ceiling command shares (usage errors exit 2 on one line, numbers must be finite,
 * durations like {@code 10s}). They live here, the lowest module with a command, so the cli module
 * and the generator's own main use one set of rules.
 */
package dev.ceiling.generator.cli;
