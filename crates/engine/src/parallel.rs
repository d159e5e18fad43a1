//! Work spread over the cores with rayon when the `rayon` feature is on (the binary), and
//! done in order on one core without it (WebAssembly). The callers keep results in their
//! own order, so the figures are the same either way.

#[cfg(feature = "rayon")]
pub use rayon::join;

/// Runs `a` and then `b`: rayon's `join` on one core.
#[cfg(not(feature = "rayon"))]
pub fn join<A, B, RA, RB>(a: A, b: B) -> (RA, RB)
where
    A: FnOnce() -> RA + Send,
    B: FnOnce() -> RB + Send,
    RA: Send,
    RB: Send,
{
    (a(), b())
}

/// `into_par_iter`, `par_iter` and the parallel iterators' methods.
#[cfg(feature = "rayon")]
pub mod prelude {
    pub use rayon::prelude::*;
}

/// `into_par_iter` and `par_iter` as plain iterators, on one core.
#[cfg(not(feature = "rayon"))]
pub mod prelude {
    /// A collection's values, one after the other.
    pub trait IntoParallelIterator: IntoIterator + Sized {
        /// The values, in order.
        fn into_par_iter(self) -> Self::IntoIter {
            self.into_iter()
        }
    }

    impl<I: IntoIterator> IntoParallelIterator for I {}

    /// A collection's values by reference, one after the other.
    pub trait IntoParallelRefIterator<'a> {
        /// The iterator over references.
        type Iter: Iterator;
        /// The values by reference, in order.
        fn par_iter(&'a self) -> Self::Iter;
    }

    impl<'a, T: 'a + ?Sized> IntoParallelRefIterator<'a> for T
    where
        &'a T: IntoIterator,
    {
        type Iter = <&'a T as IntoIterator>::IntoIter;
        fn par_iter(&'a self) -> Self::Iter {
            self.into_iter()
        }
    }

    /// rayon's `map_init` on one core: one value made by `init`, handed to every call.
    pub trait MapInit: Iterator + Sized {
        /// The values mapped by `op`, which gets the value made by `init` too.
        fn map_init<T, R>(
            self,
            init: impl Fn() -> T,
            op: impl Fn(&mut T, Self::Item) -> R,
        ) -> impl Iterator<Item = R> {
            let mut made = init();
            self.map(move |item| op(&mut made, item))
        }
    }

    impl<I: Iterator> MapInit for I {}
}
