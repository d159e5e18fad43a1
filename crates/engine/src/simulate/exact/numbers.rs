//! The arithmetic of the exact figures: rationals, and intervals of floating-point
//! numbers rounded outwards where rationals grow too long; the figures as printed.

use std::fmt;

use num_bigint::{BigInt, BigUint, Sign};
use num_rational::BigRational;
use num_traits::{One, ToPrimitive, Zero};
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

/// An exact rational in lowest terms, as [`Q`] keeps it, with Knuth's algorithms for
/// its arithmetic and Lehmer's for the greatest common divisor ([`gcd`]): the numbers of
/// a chain run to a thousand digits, where num's binary gcd, bit by bit, is most of the
/// time spent. Its figures are the same [`Q`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rational {
    numer: BigInt,
    /// Above 0, with no factor in common with `numer`.
    denom: BigInt,
}

impl Rational {
    fn zero() -> Rational {
        Rational {
            numer: BigInt::zero(),
            denom: BigInt::one(),
        }
    }

    /// `numer / denom` of a numerator and a denominator that are already in lowest terms.
    fn lowest(numer: BigInt, denom: BigInt) -> Rational {
        if numer.is_zero() {
            return Rational::zero();
        }
        match denom.sign() {
            Sign::Minus => Rational {
                numer: -numer,
                denom: -denom,
            },
            _ => Rational { numer, denom },
        }
    }

    fn negated(&self) -> Rational {
        Rational {
            numer: -&self.numer,
            denom: self.denom.clone(),
        }
    }
}

/// The greatest common divisor of two integers, by their magnitudes.
fn common(a: &BigInt, b: &BigInt) -> BigInt {
    BigInt::from(gcd(a.magnitude(), b.magnitude()))
}

/// The greatest common divisor by Lehmer's algorithm (Knuth, Algorithm 4.5.2L): the
/// quotients of Euclid's algorithm found from the leading 63 bits of both numbers, as
/// long as they are sure, and applied to the whole numbers at once.
pub(super) fn gcd(a: &BigUint, b: &BigUint) -> BigUint {
    let (mut u, mut v) = if a >= b {
        (a.clone(), b.clone())
    } else {
        (b.clone(), a.clone())
    };
    while v.bits() > 64 {
        let shift = u.bits() - 63;
        let leading = |n: &BigUint| (n >> shift).to_i128().expect("63 bits");
        let (mut x, mut y) = (leading(&u), leading(&v));
        let (mut a, mut b, mut c, mut d) = (1i128, 0i128, 0i128, 1i128);
        while y + c > 0 && y + d > 0 {
            let q = (x + a) / (y + c);
            if q != (x + b) / (y + d) {
                break;
            }
            (a, c) = (c, a - q * c);
            (b, d) = (d, b - q * d);
            (x, y) = (y, x - q * y);
        }
        if b == 0 {
            let r = &u % &v;
            (u, v) = (v, r);
        } else {
            let mix = |p: i128, q: i128| {
                let sum = BigInt::from(p) * BigInt::from(u.clone())
                    + BigInt::from(q) * BigInt::from(v.clone());
                sum.to_biguint()
                    .expect("Euclid's remainders are never negative")
            };
            (u, v) = (mix(a, b), mix(c, d));
        }
    }
    let Some(mut y) = v.to_u64().filter(|&y| y > 0) else {
        return u;
    };
    let mut x = (&u % y).to_u64().expect("below the divisor");
    while x != 0 {
        (y, x) = (x, y % x);
    }
    BigUint::from(y)
}

impl Number for Rational {
    fn ratio(num: u32, den: u32) -> Self {
        let q = Q::new(num.into(), den.into());
        Rational::lowest(q.numer().clone(), q.denom().clone())
    }
    fn add(&self, other: &Self) -> Self {
        if self.numer.is_zero() {
            return other.clone();
        }
        if other.numer.is_zero() {
            return self.clone();
        }
        let g = common(&self.denom, &other.denom);
        if g.is_one() {
            let numer = &self.numer * &other.denom + &other.numer * &self.denom;
            return Rational::lowest(numer, &self.denom * &other.denom);
        }
        let t = &self.numer * (&other.denom / &g) + &other.numer * (&self.denom / &g);
        let h = common(&t, &g);
        Rational::lowest(t / &h, (&self.denom / &g) * (&other.denom / h))
    }
    fn sub(&self, other: &Self) -> Self {
        self.add(&other.negated())
    }
    fn mul(&self, other: &Self) -> Self {
        if self.numer.is_zero() || other.numer.is_zero() {
            return Rational::zero();
        }
        let (g, h) = (
            common(&self.numer, &other.denom),
            common(&other.numer, &self.denom),
        );
        Rational::lowest(
            (&self.numer / &g) * (&other.numer / &h),
            (&self.denom / h) * (&other.denom / g),
        )
    }
    fn div(&self, other: &Self) -> Self {
        let inverse = Rational::lowest(other.denom.clone(), other.numer.clone());
        self.mul(&inverse)
    }
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        (&self.numer * &other.denom).cmp(&(&other.numer * &self.denom))
    }
    fn figure(&self) -> Figure {
        Figure::Exact(Fraction(Q::new_raw(self.numer.clone(), self.denom.clone())))
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

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};

    /// The greatest common divisor as num's rationals find it, by the binary algorithm.
    fn binary(a: &BigUint, b: &BigUint) -> BigUint {
        let q = Q::new(BigInt::from(a.clone()), BigInt::from(b.clone()));
        a / q.numer().magnitude()
    }

    #[test]
    fn lehmers_gcd_is_euclids() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1962);
        let mut number =
            |words: usize| BigUint::new((0..words).map(|_| rng.random::<u32>()).collect());
        for words in [1, 2, 3, 5, 40, 80] {
            for _ in 0..50 {
                let common = number(words / 2 + 1);
                let (a, b) = (number(words) * &common, number(words + 3) * &common);
                assert_eq!(gcd(&a, &b), binary(&a, &b));
                assert_eq!(gcd(&b, &a), binary(&a, &b));
            }
        }
        let (a, zero) = (number(30), BigUint::zero());
        assert_eq!(gcd(&a, &zero), a);
        assert_eq!(gcd(&a, &a), a);
    }

    #[test]
    fn rationals_keep_lowest_terms_as_num_does() {
        let q = |n: i64, d: i64| Q::new(n.into(), d.into());
        let r = |n: u32, d: u32| Rational::ratio(n, d);
        let same = |x: Rational, y: Q| assert_eq!(x.figure(), Figure::Exact(Fraction(y)));
        same(r(2, 6).add(&r(1, 6)), q(1, 2));
        same(r(1, 6).sub(&r(1, 6)), q(0, 1));
        same(r(1, 6).sub(&r(1, 3)), q(-1, 6));
        same(r(4, 9).mul(&r(3, 8)), q(1, 6));
        same(r(4, 9).div(&r(2, 3)), q(2, 3));
        same(r(0, 5).mul(&r(3, 8)), q(0, 1));
        assert!(r(1, 3).order(&r(2, 6)).is_eq() && r(1, 3).order(&r(1, 2)).is_lt());
    }
}
