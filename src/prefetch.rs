//! Asking the processor for memory before it is read, for loops whose next loads are known but
//! would miss every cache: the SVM solver's weights and rows, and the analysis memo's slots.

/// Asks the processor to bring the cache line holding `value` into its caches: a hint, with no
/// effect on results. Does nothing where the target has no stable prefetch instruction.
pub(crate) fn prefetch<T>(value: &T) {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        // SAFETY: a prefetch reads nothing the program sees and cannot fault; SSE, which
        // provides it, is part of every x86_64 target.
        unsafe { _mm_prefetch::<_MM_HINT_T0>(std::ptr::from_ref(value).cast::<i8>()) };
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = value;
}
