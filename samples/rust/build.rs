//! Links libcvcuda_c from the directory named by CVCUDA_C_LIB_DIR (a build tree or an installed libdir), and records
//! that directory as the binaries' run path.
use std::env;

fn main() {
    println!("cargo:rerun-if-env-changed=CVCUDA_C_LIB_DIR");
    let dir = env::var("CVCUDA_C_LIB_DIR")
        .expect("set CVCUDA_C_LIB_DIR to the directory that holds libcvcuda_c.so (e.g. the Meson build directory)");
    println!("cargo:rustc-link-search=native={dir}");
    println!("cargo:rustc-link-lib=dylib=cvcuda_c");
    println!("cargo:rustc-link-arg=-Wl,-rpath,{dir}");
    // dlopen/dlsym for the CUDA driver, loaded at run time by the GPU path (older glibc keeps them in libdl).
    println!("cargo:rustc-link-lib=dylib=dl");
}
