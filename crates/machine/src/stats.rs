//! Summary statistics of a count measured over many runs.

use std::collections::BTreeMap;

use serde::Serialize;

/// The normal quantile of a two-sided 95% interval.
const Z95: f64 = 1.959_963_984_540_054;

/// Student's t quantile of a two-sided 95% interval for 1 to 30 degrees of freedom.
const T95: [f64; 30] = [
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160,
    2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056,
    2.052, 2.048, 2.045, 2.042,
];

/// Student's t quantile of a two-sided 95% interval with `df` degrees of freedom: the
/// table up to 30, beyond it the Cornish-Fisher expansion around the normal quantile
/// (within 1e-5 there).
fn t95(df: usize) -> f64 {
    if (1..=T95.len()).contains(&df) {
        return T95[df - 1];
    }
    let (z, v) = (Z95, df as f64);
    z + (z.powi(3) + z) / (4.0 * v)
        + (5.0 * z.powi(5) + 16.0 * z.powi(3) + 3.0 * z) / (96.0 * v * v)
        + (3.0 * z.powi(7) + 19.0 * z.powi(5) + 17.0 * z.powi(3) - 15.0 * z) / (384.0 * v.powi(3))
}

/// A sampled figure, a mean or a share of runs, with its 95% confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Estimate {
    /// The mean (for a share, the share from 0 to 1).
    pub mean: f64,
    /// The interval's lower end.
    pub low: f64,
    /// The interval's upper end.
    pub high: f64,
}

impl Estimate {
    /// The mean of `values` with Student's t interval, or `None` if there are none. With
    /// one value the interval is unbounded.
    pub fn mean_of(values: impl ExactSizeIterator<Item = f64> + Clone) -> Option<Estimate> {
        let n = values.len();
        if n == 0 {
            return None;
        }
        let mean = values.clone().sum::<f64>() / n as f64;
        let half = if n > 1 {
            let var = values.map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
            t95(n - 1) * (var / n as f64).sqrt()
        } else {
            f64::INFINITY
        };
        Some(Estimate {
            mean,
            low: mean - half,
            high: mean + half,
        })
    }

    /// The share `hits` of `n` runs with its Wilson score interval.
    pub fn share(hits: u32, n: u32) -> Estimate {
        if n == 0 {
            return Estimate {
                mean: 0.0,
                low: 0.0,
                high: 1.0,
            };
        }
        let (k, n) = (f64::from(hits), f64::from(n));
        let p = k / n;
        let z2 = Z95 * Z95;
        let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
        let half = Z95 / (1.0 + z2 / n) * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
        // With no hits, or all, the interval's end is exactly 0 or 1, whatever rounding
        // says.
        Estimate {
            mean: p,
            low: if hits == 0 { 0.0 } else { centre - half },
            high: if f64::from(hits) == n {
                1.0
            } else {
                centre + half
            },
        }
        .within(0.0, 1.0)
    }

    /// The estimate with its interval cut to `low..=high`, the values the figure can
    /// take (a share is never above 1, a count never below 0).
    pub fn within(self, low: f64, high: f64) -> Estimate {
        Estimate {
            low: self.low.clamp(low, high),
            high: self.high.clamp(low, high),
            ..self
        }
    }

    /// `41.2 (95% CI 39.8 to 42.6)`, the figures multiplied by `scale` and followed by
    /// `unit`.
    pub fn text(&self, scale: f64, unit: &str) -> String {
        format!(
            "{:.1}{unit} (95% CI {:.1}{unit} to {:.1}{unit})",
            self.mean * scale,
            self.low * scale,
            self.high * scale
        )
    }
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
    /// The mean with its 95% confidence interval.
    pub mean_interval: Estimate,
    /// Count -> the share of runs that had it, with its 95% confidence interval.
    pub shares: BTreeMap<u32, Estimate>,
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
        let mean_interval =
            Estimate::mean_of(sorted.iter().map(|&v| f64::from(v)))?.within(0.0, f64::INFINITY);
        let shares = histogram
            .iter()
            .map(|(&v, &c)| (v, Estimate::share(c, n as u32)))
            .collect();
        Some(Stats {
            min,
            max,
            mean: mean_interval.mean,
            median,
            histogram,
            mean_interval,
            shares,
        })
    }

    /// `min 4, max 11, mean 7.93, median 8`.
    pub fn summary(&self) -> String {
        format!(
            "min {}, max {}, mean {:.2}, median {}",
            self.min, self.max, self.mean, self.median
        )
    }

    /// The histogram as rows of `#`, the longest `width` wide, each with its share of the
    /// runs and that share's 95% confidence interval.
    pub fn histogram_text(&self, width: usize) -> String {
        self.histogram_with(width, |n, share| format!("{n}: {}", share.text(100.0, "%")))
    }

    /// The histogram's rows, each value's count and share written by `said` (a
    /// language's words, which name what is counted).
    pub fn histogram_with(&self, width: usize, said: impl Fn(u32, &Estimate) -> String) -> String {
        let most = self.histogram.values().copied().max().unwrap_or(1).max(1);
        let digits = self.max.to_string().len();
        self.histogram
            .iter()
            .map(|(value, n)| {
                let bar = (*n as usize * width).div_ceil(most as usize);
                format!(
                    "  {value:>digits$} | {:<width$} {}\n",
                    "#".repeat(bar),
                    said(*n, &self.shares[value])
                )
            })
            .collect()
    }
}

/// What training many fresh machines measured.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Training {
    /// Machines trained.
    pub runs: u32,
    /// Games after which a machine that can still lose counts as unfinished.
    pub max_games: u32,
    /// Machines that could still lose after the last game allowed.
    pub unfinished: u32,
    /// Their share of the machines trained.
    pub unfinished_share: Estimate,
    /// Games lost (resignations included) until a machine could no longer lose, over the
    /// machines that got there.
    pub losses_to_learn: Option<Stats>,
    /// Games played until then.
    pub games_to_learn: Option<Stats>,
    /// Whether the machine's side loses the game against best play: against a perfect
    /// opponent no machine can stop losing (see `side_loses` in the simulation).
    pub side_loses: bool,
    /// Machines that gave up at their first move for good (every box for it empty, as
    /// the opponent opens): from then on they lose every game at once. A run stops there.
    pub gave_up: u32,
    /// Games played until a machine gave up, over those that did.
    pub games_to_give_up: Option<Stats>,
    /// Games won until then.
    pub wins_before_giving_up: Option<Stats>,
    /// Games drawn until then.
    pub draws_before_giving_up: Option<Stats>,
    /// In a game that can end in a draw, the share of its games each machine drew
    /// (until it learnt, gave up or ran out of games), a mean over the machines.
    pub drawn_share: Option<Estimate>,
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
    fn confidence_intervals_of_a_mean_and_a_share() {
        let s = Stats::of(&[9, 11, 9, 11]).unwrap();
        let e = &s.mean_interval;
        // sd 1.1547, n 4, t(3) 3.182: half-width 3.182 * 1.1547 / 2.
        assert!((e.high - 10.0 - 1.8372).abs() < 1e-3 && (10.0 - e.low - 1.8372).abs() < 1e-3);
        // Student's t quantiles beyond the table (31 and 1000 degrees of freedom).
        assert!((t95(31) - 2.0395).abs() < 1e-4, "{}", t95(31));
        assert!((t95(1000) - 1.9623).abs() < 1e-4, "{}", t95(1000));
        assert!(
            Estimate::mean_of([4.0].into_iter())
                .unwrap()
                .high
                .is_infinite()
        );
        let e = Estimate::share(50, 100);
        assert!((e.low - 0.4038).abs() < 1e-3 && (e.high - 0.5962).abs() < 1e-3);
        assert_eq!(Estimate::share(0, 10).low, 0.0);
        // No hits in many runs: the share's interval starts at 0 exactly, and no share's
        // ends past 1.
        assert_eq!(Estimate::share(0, 1000).low, 0.0);
        assert_eq!(Estimate::share(1000, 1000).high, 1.0);
        // A mean of counts close to 0 never has an interval below it.
        assert_eq!(Stats::of(&[0, 0, 1]).unwrap().mean_interval.low, 0.0);
        // Each count's share of the runs, with its Wilson interval.
        assert_eq!(s.shares[&9], Estimate::share(2, 4));
    }

    #[test]
    fn the_histogram_json_keys_are_the_counts() {
        let s = Stats::of(&[9, 9, 10]).unwrap();
        let json = serde_json::to_value(&s).unwrap();
        assert_eq!(json["histogram"]["9"], 2);
        assert_eq!(json["histogram"]["10"], 1);
        assert!((json["shares"]["9"]["mean"].as_f64().unwrap() - 2.0 / 3.0).abs() < 1e-9);
    }

    #[test]
    fn histogram_bars_scale_to_the_most_common_count() {
        let s = Stats::of(&[3, 3, 3, 3, 5]).unwrap();
        let text = s.histogram_text(8);
        assert_eq!(
            text,
            "  3 | ######## 4: 80.0% (95% CI 37.6% to 96.4%)\n  5 | ##       1: 20.0% (95% CI 3.6% to 62.4%)\n"
        );
    }
}
