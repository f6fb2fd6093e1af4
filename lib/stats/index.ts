/**
 * Tracefold's statistics: pure functions, no I/O, deterministic given their seeds. Rates get
 * Wilson intervals, differences Newcombe intervals, paired policy comparisons McNemar's exact test
 * and a (cluster) bootstrap, agreement Cohen's/Fleiss' κ. Every result carries its n.
 */
export { accuracy, checkSquare, confusionMatrix, percentAgreement, type ConfusionMatrix } from "./agreement";
export { binomialCdf, binomialPmf } from "./binomial";
export {
  clusterBootstrapMean,
  clusterBootstrapMeanDiff,
  DEFAULT_ITERATIONS,
  meanDifference,
  pairedBootstrap,
  type BootstrapOptions,
  type BootstrapResult,
  type ClusteredValue,
  type ClusterMeanComparison,
} from "./bootstrap";
export { cohenKappa, fleissKappa, ratingCounts, type KappaResult } from "./kappa";
export { mcnemarExact, type McNemarResult } from "./mcnemar";
export { newcombeDiff, pairedDiff, type DifferenceInterval, type IndependentDifference, type PairedDifference, type PairedTable } from "./newcombe";
export { normalQuantile, zForLevel } from "./normal";
export { mean, quantileSorted, sampleSd } from "./quantile";
export { checkCounts, wilson, Z95, type ProportionInterval } from "./wilson";
