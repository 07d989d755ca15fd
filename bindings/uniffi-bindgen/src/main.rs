//! The uniffi bindgen binary of Banco.
//!
//! Bindings are generated in library mode from the built `banco-ffi` library, so the
//! foreign code always matches the exact binary it loads:
//!
//! ```sh
//! cargo run -p uniffi-bindgen -- generate --library target/release/libbanco_ffi.so \
//!     --language kotlin --out-dir target/bindings/kotlin
//! ```
//!
//! `bindings/scripts/generate.sh` runs it for Kotlin, Swift and Python.

fn main() {
    uniffi::uniffi_bindgen_main();
}
