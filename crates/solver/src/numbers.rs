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

/// An exact rational in lowest terms, as [`Q`] keeps it. Most worths of the decision
/// problems are short: both terms within 63 bits, they are worked out in 128-bit machine
/// arithmetic with nothing allocated. Longer ones (a chain's run to a thousand digits)
/// are big integers, with Knuth's algorithms for their arithmetic and Lehmer's for the
/// greatest common divisor (`gcd`), where num's binary gcd, bit by bit, is most of the
/// time spent. Its figures are the same [`Q`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rational(Terms);

/// The terms of a [`Rational`]: short whenever they fit, so that equal numbers are held
/// alike.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Terms {
    /// `numer / denom`, both at most `i64::MAX` in size, `denom` above 0.
    Short { numer: i64, denom: i64 },
    /// `numer / denom`, `denom` above 0, one of them too long to be short.
    Long { numer: BigInt, denom: BigInt },
}

impl Rational {
    const ZERO: Rational = Rational(Terms::Short { numer: 0, denom: 1 });

    /// `numer / denom` of terms already in lowest terms, `denom` above 0.
    fn short_or_long(numer: i128, denom: i128) -> Rational {
        match (i64::try_from(numer), i64::try_from(denom)) {
            (Ok(n), Ok(d)) if n != i64::MIN => Rational(Terms::Short { numer: n, denom: d }),
            _ => Rational(Terms::Long {
                numer: numer.into(),
                denom: denom.into(),
            }),
        }
    }

    /// `numer / denom` of a numerator and a denominator that are already in lowest terms.
    fn lowest(numer: BigInt, denom: BigInt) -> Rational {
        if numer.is_zero() {
            return Rational::ZERO;
        }
        let (numer, denom) = match denom.sign() {
            Sign::Minus => (-numer, -denom),
            _ => (numer, denom),
        };
        match (numer.to_i64(), denom.to_i64()) {
            (Some(n), Some(d)) if n != i64::MIN => Rational(Terms::Short { numer: n, denom: d }),
            _ => Rational(Terms::Long { numer, denom }),
        }
    }

    /// The terms as big integers.
    fn long(&self) -> (std::borrow::Cow<'_, BigInt>, std::borrow::Cow<'_, BigInt>) {
        use std::borrow::Cow;
        match &self.0 {
            Terms::Short { numer, denom } => (
                Cow::Owned(BigInt::from(*numer)),
                Cow::Owned(BigInt::from(*denom)),
            ),
            Terms::Long { numer, denom } => (Cow::Borrowed(numer), Cow::Borrowed(denom)),
        }
    }

    fn is_zero(&self) -> bool {
        matches!(self.0, Terms::Short { numer: 0, .. })
    }

    fn negated(&self) -> Rational {
        Rational(match &self.0 {
            Terms::Short { numer, denom } => Terms::Short {
                numer: -numer,
                denom: *denom,
            },
            Terms::Long { numer, denom } => Terms::Long {
                numer: -numer,
                denom: denom.clone(),
            },
        })
    }

    /// Knuth's sum of two long rationals.
    fn add_long(x: (&BigInt, &BigInt), y: (&BigInt, &BigInt)) -> Rational {
        let g = common(x.1, y.1);
        if g.is_one() {
            let numer = x.0 * y.1 + y.0 * x.1;
            return Rational::lowest(numer, x.1 * y.1);
        }
        let t = x.0 * (y.1 / &g) + y.0 * (x.1 / &g);
        let h = common(&t, &g);
        Rational::lowest(t / &h, (x.1 / &g) * (y.1 / h))
    }

    /// Knuth's product of two long rationals.
    fn mul_long(x: (&BigInt, &BigInt), y: (&BigInt, &BigInt)) -> Rational {
        let (g, h) = (common(x.0, y.1), common(y.0, x.1));
        Rational::lowest((x.0 / &g) * (y.0 / &h), (x.1 / h) * (y.1 / g))
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
    let Some(y) = v.to_u64().filter(|&y| y > 0) else {
        return u;
    };
    let x = (&u % y).to_u64().expect("below the divisor");
    BigUint::from(gcd_u64(x, y))
}

/// The greatest common divisor of two machine words, by the binary algorithm (Stein's),
/// shifting off a run of zero bits at a time.
fn gcd_u64(mut a: u64, mut b: u64) -> u64 {
    if a == 0 || b == 0 {
        return a | b;
    }
    let shift = (a | b).trailing_zeros();
    a >>= a.trailing_zeros();
    loop {
        b >>= b.trailing_zeros();
        if a > b {
            std::mem::swap(&mut a, &mut b);
        }
        b -= a;
        if b == 0 {
            return a << shift;
        }
    }
}

impl Number for Rational {
    fn ratio(num: u32, den: u32) -> Self {
        let g = gcd_u64(num.into(), den.into());
        Rational::short_or_long((num as u64 / g).into(), (den as u64 / g).into())
    }
    fn add(&self, other: &Self) -> Self {
        if self.is_zero() {
            return other.clone();
        }
        if other.is_zero() {
            return self.clone();
        }
        let (&Terms::Short { numer: a, denom: b }, &Terms::Short { numer: c, denom: d }) =
            (&self.0, &other.0)
        else {
            let (x, y) = (self.long(), other.long());
            return Rational::add_long((&x.0, &x.1), (&y.0, &y.1));
        };
        // Knuth's sum in 128 bits: each product below 2^126, their sum below 2^127.
        let wide = |n: i64| i128::from(n);
        let g = gcd_u64(b as u64, d as u64) as i64;
        if g == 1 {
            return Rational::short_or_long(
                wide(a) * wide(d) + wide(c) * wide(b),
                wide(b) * wide(d),
            );
        }
        let t = wide(a) * wide(d / g) + wide(c) * wide(b / g);
        if t == 0 {
            return Rational::ZERO;
        }
        let h = gcd_u64((t.unsigned_abs() % g as u128) as u64, g as u64) as i64;
        Rational::short_or_long(t / wide(h), wide(b / g) * wide(d / h))
    }
    fn sub(&self, other: &Self) -> Self {
        self.add(&other.negated())
    }
    fn mul(&self, other: &Self) -> Self {
        if self.is_zero() || other.is_zero() {
            return Rational::ZERO;
        }
        let (&Terms::Short { numer: a, denom: b }, &Terms::Short { numer: c, denom: d }) =
            (&self.0, &other.0)
        else {
            let (x, y) = (self.long(), other.long());
            return Rational::mul_long((&x.0, &x.1), (&y.0, &y.1));
        };
        let g = gcd_u64(a.unsigned_abs(), d as u64) as i64;
        let h = gcd_u64(c.unsigned_abs(), b as u64) as i64;
        let wide = |n: i64| i128::from(n);
        Rational::short_or_long(wide(a / g) * wide(c / h), wide(b / h) * wide(d / g))
    }
    fn div(&self, other: &Self) -> Self {
        let inverse = match &other.0 {
            // Below i64::MAX in size both ways, so the inverse is short too.
            &Terms::Short { numer, denom } if numer != 0 => Rational(Terms::Short {
                numer: denom * numer.signum(),
                denom: numer.abs(),
            }),
            _ => {
                let (numer, denom) = other.long();
                Rational::lowest(denom.into_owned(), numer.into_owned())
            }
        };
        self.mul(&inverse)
    }
    fn order(&self, other: &Self) -> std::cmp::Ordering {
        if let (&Terms::Short { numer: a, denom: b }, &Terms::Short { numer: c, denom: d }) =
            (&self.0, &other.0)
        {
            return (i128::from(a) * i128::from(d)).cmp(&(i128::from(c) * i128::from(b)));
        }
        let (x, y) = (self.long(), other.long());
        (&*x.0 * &*y.1).cmp(&(&*y.0 * &*x.1))
    }
    fn figure(&self) -> Figure {
        let (numer, denom) = self.long();
        Figure::Exact(Fraction(Q::new_raw(numer.into_owned(), denom.into_owned())))
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
    Sampled(matchbox_machine::Estimate),
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

    /// A rational of `numer / denom` (`denom` not 0) through num's, in lowest terms.
    fn from_q(q: &Q) -> Rational {
        Rational::lowest(q.numer().clone(), q.denom().clone())
    }

    /// Terms near the edges of the short ones, and far beyond them.
    fn term() -> impl proptest::strategy::Strategy<Value = BigInt> {
        use proptest::prelude::*;
        prop_oneof![
            any::<i8>().prop_map(BigInt::from),
            any::<i64>().prop_map(BigInt::from),
            (any::<i64>(), 0u32..3)
                .prop_map(|(n, k)| BigInt::from(i64::MAX - i64::from(k)) * n.signum()),
            (any::<i64>(), 1u32..70).prop_map(|(n, k)| BigInt::from(n) << k),
        ]
    }

    proptest::proptest! {
        #[test]
        fn short_and_long_rationals_work_out_as_nums(
            (a, b, c, d) in (term(), term(), term(), term())
        ) {
            proptest::prop_assume!(!b.is_zero() && !d.is_zero());
            let (p, q) = (Q::new(a, b), Q::new(c, d));
            let (x, y) = (from_q(&p), from_q(&q));
            let fits = |q: &Q| q.numer().to_i64().is_some_and(|n| n != i64::MIN) && q.denom().to_i64().is_some();
            for (r, expected) in [(&x, &p), (&y, &q)] {
                proptest::prop_assert_eq!(matches!(r.0, Terms::Short { .. }), fits(expected));
            }
            let same = |r: Rational, expected: Q| {
                // Short whenever it fits, so that equal numbers are held alike.
                assert_eq!(r, from_q(&expected));
                assert_eq!(r.figure(), Figure::Exact(Fraction(expected)));
            };
            same(x.add(&y), &p + &q);
            same(x.sub(&y), &p - &q);
            same(x.mul(&y), &p * &q);
            if !q.is_zero() {
                same(x.div(&y), &p / &q);
            }
            proptest::prop_assert_eq!(x.order(&y), p.cmp(&q));
        }
    }
}
