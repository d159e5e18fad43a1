//! Summary statistics of a count measured over many runs.

use std::collections::BTreeMap;

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
pub(crate) const Z95: f64 = 1.959_963_984_540_054;

/// The Wilson 95% confidence interval of a proportion: `hits` of `n`.
pub fn wilson(hits: u32, n: u32) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (k, n) = (f64::from(hits), f64::from(n));
    let p = k / n;
    let z2 = Z95 * Z95;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// Minimum, maximum, mean, median and histogram of counts.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Stats {
    /// The smallest count.
    pub min: u32,
    /// The largest count.
    pub max: u32,
    /// The mean.
    pub mean: f64,
    /// The median (the mean of the two middle counts when their number is even).
    pub median: f64,
    /// Count -> how many runs had it.
    pub histogram: BTreeMap<u32, u32>,
}

impl Stats {
    /// The statistics of `values`, or `None` if there are none.
    pub fn of(values: &[u32]) -> Option<Stats> {
        let mut sorted = values.to_vec();
        sorted.sort_unstable();
        let (&min, &max) = (sorted.first()?, sorted.last()?);
        let n = sorted.len();
        let median = if n % 2 == 1 {
            f64::from(sorted[n / 2])
        } else {
            (f64::from(sorted[n / 2 - 1]) + f64::from(sorted[n / 2])) / 2.0
        };
        let mut histogram = BTreeMap::new();
        for &v in &sorted {
            *histogram.entry(v).or_insert(0) += 1;
        }
        Some(Stats {
            min,
            max,
            mean: sorted.iter().map(|&v| f64::from(v)).sum::<f64>() / n as f64,
            median,
            histogram,
        })
    }

    /// The 95% confidence interval of the mean (normal approximation, with the sample's
    /// standard deviation; the runs are hundreds or more).
    pub fn mean_interval(&self) -> (f64, f64) {
        let n: f64 = self.histogram.values().map(|&c| f64::from(c)).sum();
        let squares: f64 = self
            .histogram
            .iter()
            .map(|(&v, &c)| f64::from(c) * (f64::from(v) - self.mean).powi(2))
            .sum();
        let half = if n > 1.0 {
            Z95 * (squares / (n - 1.0)).sqrt() / n.sqrt()
        } else {
            f64::INFINITY
        };
        (self.mean - half, self.mean + half)
    }

    /// `min 4, max 11, mean 7.93, median 8`.
    pub fn summary(&self) -> String {
        format!(
            "min {}, max {}, mean {:.2}, median {}",
            self.min, self.max, self.mean, self.median
        )
    }

    /// The histogram as rows of `#`, the longest `width` wide.
    pub fn histogram_text(&self, width: usize) -> String {
        let most = self.histogram.values().copied().max().unwrap_or(1).max(1);
        let digits = self.max.to_string().len();
        self.histogram
            .iter()
            .map(|(value, n)| {
                let bar = (*n as usize * width).div_ceil(most as usize);
                format!("  {value:>digits$} | {} {n}\n", "#".repeat(bar))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_of_a_small_sample() {
        let s = Stats::of(&[9, 7, 9, 11]).unwrap();
        assert_eq!((s.min, s.max), (7, 11));
        assert_eq!(s.mean, 9.0);
        assert_eq!(s.median, 9.0);
        assert_eq!(s.histogram, BTreeMap::from([(7, 1), (9, 2), (11, 1)]));
        assert_eq!(Stats::of(&[1, 2]).unwrap().median, 1.5);
        assert_eq!(Stats::of(&[]), None);
        assert_eq!(s.summary(), "min 7, max 11, mean 9.00, median 9");
    }

    #[test]
    fn confidence_intervals_of_a_mean_and_a_proportion() {
        let s = Stats::of(&[9, 11, 9, 11]).unwrap();
        let (low, high) = s.mean_interval();
        // sd 1.1547, n 4: half-width 1.96 * 1.1547 / 2.
        assert!((high - 10.0 - 1.1316).abs() < 1e-3 && (10.0 - low - 1.1316).abs() < 1e-3);
        let (low, high) = wilson(50, 100);
        assert!((low - 0.4038).abs() < 1e-3 && (high - 0.5962).abs() < 1e-3);
        assert_eq!(wilson(0, 10).0, 0.0);
    }

    #[test]
    fn the_histogram_json_keys_are_the_counts() {
        let s = Stats::of(&[9, 9, 10]).unwrap();
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["histogram"]["9"], 2);
        assert_eq!(json["histogram"]["10"], 1);
    }

    #[test]
    fn histogram_bars_scale_to_the_most_common_count() {
        let s = Stats::of(&[3, 3, 3, 3, 5]).unwrap();
        let text = s.histogram_text(8);
        assert_eq!(text, "  3 | ######## 4\n  5 | ## 1\n");
    }
}
