//! The arithmetic of the exact figures: rationals, and intervals of floating-point
//! numbers rounded outwards where rationals grow too long; the figures as printed.

use std::fmt;

use num_rational::BigRational;
use num_traits::{ToPrimitive, Zero};
use serde::{Serialize, Serializer};

/// An exact probability or expectation.
pub type Q = BigRational;

/// An exact fraction, written `p/q` in JSON.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Fraction(pub Q);

impl Fraction {
    /// The fraction as a floating-point number, for printing.
    pub fn to_f64(&self) -> f64 {
        self.0.to_f64().unwrap_or(f64::NAN)
    }
}

impl fmt::Display for Fraction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.0.numer(), self.0.denom())
    }
}

impl Serialize for Fraction {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

/// The arithmetic of a solution: exact rationals, or intervals of floating-point numbers
/// that are proven to hold the exact value (used where rationals grow too long).
pub trait Number: Clone + fmt::Debug + Send + Sync {
    /// The number nearest to `q` (exactly `q` for rationals).
    fn of(q: &Q) -> Self;
    /// `num / den`, without building a rational on the way.
    fn ratio(num: u32, den: u32) -> Self;
    /// `self + other`.
    fn add(&self, other: &Self) -> Self;
    /// `self - other`.
    fn sub(&self, other: &Self) -> Self;
    /// `self * other`.
    fn mul(&self, other: &Self) -> Self;
    /// `self / other`.
    fn div(&self, other: &Self) -> Self;
    /// Orders two numbers (intervals that overlap are equal).
    fn order(&self, other: &Self) -> std::cmp::Ordering;
    /// The number as a figure for the output.
    fn figure(&self) -> Figure;
}

/// 0 in any arithmetic.
pub(super) fn zero<N: Number>() -> N {
    N::ratio(0, 1)
}

/// 1 in any arithmetic.
pub(super) fn one<N: Number>() -> N {
    N::ratio(1, 1)
}

impl Number for Q {
    fn of(q: &Q) -> Self {
        q.clone()
    }
    fn ratio(num: u32, den: u32) -> Self {
        Q::new(num.into(), den.into())
    }
    fn add(&self, other: &Self) -> Self {
        self + other
    }
    fn sub(&self, other: &Self) -> Self {
        self - other
    }
    fn mul(&self, other: &Self) -> Self {
        self * other
    }
    fn div(&self, other: &Self) -> Self {
        self / other
    }
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        self.cmp(other)
    }
    fn figure(&self) -> Figure {
        Figure::Exact(Fraction(self.clone()))
    }
}

/// A closed interval of floating-point numbers holding an exact value that is never
/// negative: each operation rounds its ends outwards by one unit in the last place, so
/// the exact result always stays inside.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Bounds {
    /// The lower end.
    pub low: f64,
    /// The upper end.
    pub high: f64,
}

impl Bounds {
    /// `low..=high` widened by one unit in the last place at each end.
    #[inline]
    fn outwards(low: f64, high: f64) -> Bounds {
        Bounds {
            low: below(low),
            high: above(high),
        }
    }
}

/// `x.next_down().max(0.0)`: the number below `x`, never below 0. Spelled out for the
/// common case, since the exact figures do little else.
#[inline(always)]
fn below(x: f64) -> f64 {
    if x > 0.0 {
        f64::from_bits(x.to_bits() - 1)
    } else {
        0.0
    }
}

/// The number above `x`, where a result of exactly 0 from values that are never
/// negative is exact: `x.next_up()`, spelled out for a finite `x` above 0.
#[inline(always)]
fn above(x: f64) -> f64 {
    if x > 0.0 && x < f64::INFINITY {
        f64::from_bits(x.to_bits() + 1)
    } else if x == 0.0 {
        0.0
    } else {
        x.next_up()
    }
}

impl Number for Bounds {
    fn of(q: &Q) -> Self {
        let x = q.to_f64().unwrap_or(f64::INFINITY);
        if q.is_zero() {
            Bounds {
                low: 0.0,
                high: 0.0,
            }
        } else {
            Bounds::outwards(x, x)
        }
    }
    #[inline]
    fn ratio(num: u32, den: u32) -> Self {
        let x = f64::from(num) / f64::from(den);
        if num.is_multiple_of(den) {
            Bounds { low: x, high: x }
        } else {
            Bounds::outwards(x, x)
        }
    }
    #[inline]
    fn add(&self, other: &Self) -> Self {
        Bounds::outwards(self.low + other.low, self.high + other.high)
    }
    #[inline]
    fn sub(&self, other: &Self) -> Self {
        Bounds::outwards(self.low - other.high, self.high - other.low)
    }
    #[inline]
    fn mul(&self, other: &Self) -> Self {
        Bounds::outwards(self.low * other.low, self.high * other.high)
    }
    #[inline]
    fn div(&self, other: &Self) -> Self {
        Bounds::outwards(self.low / other.high, self.high / other.low)
    }
    #[inline]
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        // Overlapping bounds may hold the same number: they count as equal.
        if self.high < other.low {
            std::cmp::Ordering::Less
        } else if other.high < self.low {
            std::cmp::Ordering::Greater
        } else {
            std::cmp::Ordering::Equal
        }
    }
    fn figure(&self) -> Figure {
        Figure::Bounded(*self)
    }
}

/// A figure of the output: an exact fraction, or bounds proven to hold it.
#[derive(Clone, Debug, PartialEq)]
pub enum Figure {
    /// Exactly this.
    Exact(Fraction),
    /// Somewhere in these bounds.
    Bounded(Bounds),
}

impl Figure {
    /// The figure as one floating-point number (the middle of bounds).
    pub fn to_f64(&self) -> f64 {
        match self {
            Figure::Exact(f) => f.to_f64(),
            Figure::Bounded(b) => (b.low + b.high) / 2.0,
        }
    }

    /// The figure with its bounds cut to `low..=high`, where the exact value is known to
    /// lie (a probability never above 1): rounding outwards may overshoot them.
    pub fn within(self, low: f64, high: f64) -> Figure {
        match self {
            Figure::Bounded(b) => Figure::Bounded(Bounds {
                low: b.low.clamp(low, high),
                high: b.high.clamp(low, high),
            }),
            exact => exact,
        }
    }
}

impl Serialize for Figure {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Figure::Exact(f) => f.serialize(s),
            Figure::Bounded(b) => b.serialize(s),
        }
    }
}

impl Serialize for Bounds {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(2))?;
        map.serialize_entry("low", &self.low)?;
        map.serialize_entry("high", &self.high)?;
        map.end()
    }
}

/// A figure worked out exactly, or sampled with its 95% confidence interval.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(untagged)]
pub enum Measure {
    /// Exactly, or in proven bounds.
    Exact(Figure),
    /// Sampled.
    Sampled(crate::simulate::Estimate),
}

impl Measure {
    /// The figure as one floating-point number.
    pub fn to_f64(&self) -> f64 {
        match self {
            Measure::Exact(f) => f.to_f64(),
            Measure::Sampled(e) => e.mean,
        }
    }
}

/// How a solution was computed, as the output states it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Arithmetic {
    /// Exact rational arithmetic.
    Rational,
    /// Floating-point intervals rounded outwards: each figure's bounds are proven.
    Interval,
}
