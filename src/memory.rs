//! How soon freed memory goes back to the system: a module of the binary, beside `main.rs`,
//! which chooses the allocator.
//!
//! The `bowline` binary allocates with mimalloc, which keeps pages that became free for a second
//! (its `purge_delay` option, 1000 ms) before handing them back, so that later allocations reuse
//! them without a page fault and without the kernel zeroing them again. Most runs gain from that:
//! with the pages kept, `vectorize` on 20 Newsgroups used 0.71 s of CPU instead of 0.90,
//! multinomial NB trained in 365 ms instead of 508 and the SVM evaluated in 292 ms instead of 442
//! (hyperfine, 10–12 runs each), while their peaks stayed far below scikit-learn's (vectorize
//! 152–171 MiB against 210).
//!
//! Two kinds of run do not gain, and hold much more memory when freed pages are kept:
//! fits that form n-grams, whose hash tables of millions of n-grams are outgrown and replaced
//! while the corpus is counted (the SVM trained on 20 Newsgroups' bigrams peaked at 307 MiB
//! instead of 184, above scikit-learn's 266–286, in the same time), and `stats`, which keeps
//! sets of every distinct word (215 MiB instead of 128, 0.72 s against 0.70). Those call
//! [`return_freed_pages_at_once`] before they start. The library never changes these settings:
//! the allocator is the program's choice, so the commands make it.

/// mimalloc's number for its `purge_delay` option in `mi_option_e`; it exports no constant for
/// it, so its default value is checked before the option is changed.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;
const DEFAULT_DELAY: std::os::raw::c_long = 1000;

/// Has mimalloc return freed pages to the system at once for the rest of the process, unless
/// `MIMALLOC_PURGE_DELAY` says otherwise.
pub fn return_freed_pages_at_once() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_some() {
        return;
    }
    // SAFETY: both calls only read or write one of mimalloc's option slots, a machine word; the
    // callers run before their pipeline's threads start, while any other thread is idle.
    unsafe {
        if libmimalloc_sys::mi_option_get(PURGE_DELAY) == DEFAULT_DELAY {
            libmimalloc_sys::mi_option_set(PURGE_DELAY, 0);
        }
    }
}

/// Prepares the allocator for a fit with `analysis`: one that forms word or character n-grams
/// returns freed pages at once (see above).
pub fn prepare_for(analysis: &bowline::jobs::settings::AnalyzerConfig) {
    if analysis.ngram_max > 1 || analysis.char_ngrams.is_some() {
        return_freed_pages_at_once();
    }
}

/// Stops mimalloc from returning freed pages to the system, for a process that is about to exit.
///
/// At exit mimalloc purges every page whose purge was scheduled but not yet due, one `madvise`
/// call per span, which also splits the transparent huge pages those spans lie in; the kernel
/// takes all of the process's memory back a moment later anyway. `vectorize` on 20 Newsgroups
/// ended with 488 such calls (`perf stat`), 13 ms of its run under `perf trace`; with them
/// skipped it took 330 ms instead of 347 (medians of 30 alternating runs, a noisy machine). A
/// purge delay below zero means "never purge", which the purge at exit honours.
pub fn skip_purging_at_exit() {
    // SAFETY: the call only writes one of mimalloc's option slots, a machine word, after the
    // command's own threads have been joined.
    unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, -1) }
}
