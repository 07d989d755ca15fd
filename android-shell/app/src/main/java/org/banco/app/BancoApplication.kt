package org.banco.app

import android.app.Application
import android.util.Log

class BancoApplication : Application() {
    /** False when the Rust library is missing from the APK (jniLibs not built: see README). */
    var nativeReady = false
        private set

    override fun onCreate() {
        super.onCreate()
        // JNA loads libbanco_ffi.so itself on first use; loading it here fails early and
        // clearly when jniLibs/<abi>/libbanco_ffi.so was not packaged.
        nativeReady = try {
            System.loadLibrary("banco_ffi")
            true
        } catch (e: UnsatisfiedLinkError) {
            Log.e("Banco", "libbanco_ffi.so is missing: build it with cargo-ndk (README)", e)
            false
        }
    }
}
