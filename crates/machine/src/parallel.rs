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

/// Values that the calls of a parallel loop take and give back, such as buffers and
/// memories that are worth keeping warm from one loop to the next: a call takes one
/// (or makes one when all are taken) and gives it back when done with it.
pub struct Pool<T>(std::sync::Mutex<Vec<T>>);

impl<T> Pool<T> {
    /// An empty pool.
    pub fn new() -> Pool<T> {
        Pool(std::sync::Mutex::new(Vec::new()))
    }

    /// A value of the pool's, or `make`'s when the pool has none left.
    pub fn take(&self, make: impl FnOnce() -> T) -> Taken<'_, T> {
        let kept = self.0.lock().unwrap_or_else(|e| e.into_inner()).pop();
        Taken {
            pool: self,
            value: Some(kept.unwrap_or_else(make)),
        }
    }
}

impl<T> Default for Pool<T> {
    fn default() -> Self {
        Pool::new()
    }
}

/// A value taken from a [`Pool`], given back when dropped.
pub struct Taken<'p, T> {
    pool: &'p Pool<T>,
    value: Option<T>,
}

impl<T> std::ops::Deref for Taken<'_, T> {
    type Target = T;
    fn deref(&self) -> &T {
        self.value.as_ref().expect("a taken value until dropped")
    }
}

impl<T> std::ops::DerefMut for Taken<'_, T> {
    fn deref_mut(&mut self) -> &mut T {
        self.value.as_mut().expect("a taken value until dropped")
    }
}

impl<T> Drop for Taken<'_, T> {
    fn drop(&mut self) {
        if let Some(value) = self.value.take() {
            let mut pool = self.pool.0.lock().unwrap_or_else(|e| e.into_inner());
            pool.push(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_given_back_is_taken_again_and_one_is_made_only_when_all_are_taken() {
        let pool = Pool::new();
        let made = std::sync::atomic::AtomicU32::new(0);
        let make = || made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        {
            let (mut first, second) = (pool.take(make), pool.take(make));
            assert_eq!((*first, *second), (0, 1));
            *first = 10;
        }
        // Both given back: taken again, nothing made.
        let (a, b) = (pool.take(make), pool.take(make));
        let mut taken = [*a, *b];
        taken.sort();
        assert_eq!(taken, [1, 10]);
        assert_eq!(*pool.take(make), 2);
    }
}
