//! Summary statistics of a count measured over many runs.

use std::collections::BTreeMap;

use serde::Serialize;

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
