package dev.ceiling.verdict;

/**
 * Where one arm stops tracking the offer. Report-only: nothing gates on it.
 *
 * <p>A rate is "below" when the arm's accepted/offered interval upper end (two-sided, 1 -
 * family_alpha; the mean itself when the cells are constant) is under {@code threshold}, and
 * "tracking" when it is not; a rate with fewer than two evidence cells is unknown. The knee is the
 * lowest rate that is below AND whose next grid rate is also below: a lone dip is not a knee, and a
 * dip at the last rate cannot be confirmed. The highest passing rate is the highest tracking rate
 * under the knee (or overall, when there is no knee).
 *
 * @param arm the arm (the treatment's)
 * @param highestPassingPerS the highest tracking rate below the knee, or null if none
 * @param kneePerS the knee, or null when none was confirmed
 * @param threshold 1 - knee_epsilon
 * @param note what was found, in words
 */
public record KneeBracket(
    String arm, Double highestPassingPerS, Double kneePerS, double threshold, String note) {}
