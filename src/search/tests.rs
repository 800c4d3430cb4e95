//! Search tests.
