//! Hot loops (the net's) compiled for the CPU that runs them.
//!
//! The default build targets plain x86-64, whose vectors (SSE2) hold eight
//! `i16`; most CPUs since 2013 have AVX2, whose vectors hold sixteen. A
//! function defined with [`multiversion!`] is compiled twice, for the
//! build's target and for AVX2, and calls the AVX2 form where the CPU has
//! it (the check is a cached flag). Both forms compute the same integers:
//! only the instructions differ. Elsewhere than on x86-64 there is one form.

#![allow(unsafe_code)]

/// Defines a function whose body is compiled for the build's target and,
/// on x86-64, again for AVX2, the latter called where the CPU has it. The
/// body is a plain function of its arguments (no generics, no `self`).
macro_rules! multiversion {
    (
        $(#[$attr:meta])*
        $vis:vis fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $(-> $ret:ty)? $body:block
    ) => {
        $(#[$attr])*
        #[inline]
        #[allow(unsafe_code)]
        $vis fn $name($($arg: $ty),*) $(-> $ret)? {
            #[inline(always)]
            fn portable($($arg: $ty),*) $(-> $ret)? $body
            #[cfg(target_arch = "x86_64")]
            {
                #[target_feature(enable = "avx2")]
                fn avx2($($arg: $ty),*) $(-> $ret)? {
                    portable($($arg),*)
                }
                if $crate::simd::avx2() {
                    // SAFETY: this CPU has AVX2, as just checked.
                    return unsafe { avx2($($arg),*) };
                }
            }
            portable($($arg),*)
        }
    };
}

pub(crate) use multiversion;

/// Whether the AVX2 forms may run: the CPU has AVX2 (a cached flag) and,
/// in tests, the thread did not ask for the portable forms.
#[cfg(target_arch = "x86_64")]
#[inline]
pub(crate) fn avx2() -> bool {
    #[cfg(test)]
    if PORTABLE.with(std::cell::Cell::get) {
        return false;
    }
    std::arch::is_x86_feature_detected!("avx2")
}

#[cfg(test)]
thread_local! {
    static PORTABLE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Runs `f` with the portable forms only on this thread (tests compare
/// them with the AVX2 forms).
#[cfg(test)]
pub(crate) fn portable<R>(f: impl FnOnce() -> R) -> R {
    PORTABLE.with(|p| p.set(true));
    let r = f();
    PORTABLE.with(|p| p.set(false));
    r
}
